/**
 * `npm run moderation -- <command>`: the operator's review path from the
 * terminal (issue "Trust and safety"; README "Moderation"). Runs against the
 * local database of `npm start` (.wrangler/state, or --persist-to DIR; its
 * SQLite file directly, scripts/lib/local-operator-db.ts), or with --remote
 * against the deployed D1 through `wrangler d1 execute`. The actions and
 * their SQL are in worker/lib/moderation-actions.ts; each one is recorded in
 * the `moderation_actions` audit table with --as (default: the OS user) and
 * --reason.
 *
 * An upheld report also purges the visitors' edge cache of the character
 * (scripts/lib/edge-purge.ts): with --remote and CACHE_PURGE_ZONE_ID /
 * CACHE_PURGE_API_TOKEN set, in every data center at once; otherwise the
 * copies expire within the staleness bound (30 s).
 *
 * Exit codes: 0 done, 1 the command failed (wrangler, database), 2 a usage
 * error or a request that cannot be carried out (unknown report…).
 */
import { userInfo } from "node:os";
import { parseArgs } from "node:util";
import {
  type Actor,
  describeTarget,
  dismissReport,
  findUser,
  getReport,
  listOpenReports,
  listScreening,
  type OperatorDb,
  OperatorError,
  type ReportLine,
  restoreCharacter,
  suspendUser,
  unsuspendUser,
  reportedPicturePath,
  upholdReport,
} from "../worker/lib/moderation-actions.ts";
import { cachedCopiesOf, purgeAfterOperatorAction } from "./lib/edge-purge.ts";
import { localOperatorDb } from "./lib/local-operator-db.ts";
import { DEFAULT_PERSIST_DIR } from "./lib/tools.ts";
import { wranglerOperatorDb } from "./lib/wrangler-d1.ts";

const USAGE = `Usage: npm run moderation -- <command> [options]

Commands:
  reports                   open reports, oldest first, with excerpts
  show N                    one report in full, its target now and earlier actions
  uphold N                  remove the target (character removed, comment deleted,
                            message hidden, chat picture deleted with its file,
                            share link deleted) and close every open report on it
  dismiss N                 close the report (a flagged character goes back to ok)
  suspend @username         sign the person out everywhere and refuse their writes
  restore @username         lift a suspension
  restore character N       bring back a removed character
  screening                 the last 50 screening outcomes (refused, flagged, replaced)

Options:
  --reason TEXT             why (kept in the audit table)
  --as NAME                 who is acting (default: the OS user)
  --remote                  the deployed database (through wrangler) instead of the local one
  --persist-to DIR          local state directory (default .wrangler/state)
  --site URL                the running site (default: $FABLED_SITE_URL): after
                            suspend, its open chat sockets are closed at once;
                            after uphold of a message or picture, its chat applies
                            the removal at once (without it: at their next frame,
                            or when the chat is next opened)
  -h, --help                show this help
`;

function fail(message: string): never {
  process.stderr.write(`${message}\n`);
  process.exit(2);
}

let parsed: ReturnType<typeof parse>;
function parse() {
  return parseArgs({
    allowPositionals: true,
    options: {
      reason: { type: "string" },
      as: { type: "string" },
      remote: { type: "boolean", default: false },
      "persist-to": { type: "string", default: DEFAULT_PERSIST_DIR },
      site: { type: "string" },
      help: { type: "boolean", short: "h", default: false },
    },
  });
}
try {
  parsed = parse();
} catch (error) {
  fail(`${(error as Error).message}\n\n${USAGE}`);
}
const { values, positionals } = parsed;
if (values.help || positionals.length === 0) {
  process.stdout.write(USAGE);
  process.exit(values.help ? 0 : 2);
}

// The deployed D1 only through wrangler; the local database straight from its file (local-operator-db.ts).
let db: OperatorDb;
try {
  db = values.remote ? wranglerOperatorDb({ remote: true, persistTo: values["persist-to"] }) : localOperatorDb(values["persist-to"]);
} catch (error) {
  process.stderr.write(`${(error as Error).message}\n`);
  process.exit(1);
}
const who: Actor = { actor: values.as?.trim() || userInfo().username, reason: values.reason?.trim() || null };
const [command, ...rest] = positionals;

function reportId(text: string | undefined): number {
  const id = Number(text);
  if (!text || !Number.isSafeInteger(id) || id < 1) fail(`Name the report by its number, e.g. "${command} 12".\n\n${USAGE}`);
  return id;
}

const when = (ms: number) => new Date(ms).toISOString().replace("T", " ").slice(0, 16);
const oneLine = (text: string, length: number) => {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length > length ? `${flat.slice(0, length - 1)}…` : flat;
};

function printReportLine(report: ReportLine): void {
  const target =
    report.targetType === "message" ? `${reportedPicturePath(report) ? "picture" : "message"} ${report.targetId.slice(0, 8)}` : `${report.targetType} ${report.targetId}`;
  const extra = report.openOnTarget > 1 ? ` (+${report.openOnTarget - 1} more on it)` : "";
  console.log(
    `#${report.id}  ${when(report.createdAt)}  ${target}${extra}  ${report.reason}  by ${report.reporter ?? "automatic screening"}`,
  );
  console.log(`      "${oneLine(report.excerpt, 100)}"`);
}

/**
 * Asks the running site to close a just-suspended person's chat sockets now
 * (worker/routes/enforcement.ts). The suspension itself is already in D1
 * and the rooms refuse the person's frames whatever happens here, so a
 * failure is reported, not fatal.
 */
async function closeSuspendedSockets(userId: string): Promise<string> {
  const site = values.site?.trim() || process.env.FABLED_SITE_URL?.trim();
  if (!site) return "Their open chat sockets close at their next frame (pass --site URL to close them now).";
  try {
    const res = await fetch(new URL(`/api/enforcement/suspensions/${encodeURIComponent(userId)}`, site), { method: "POST" });
    if (!res.ok) return `Could not close their open chat sockets now (${site} answered ${res.status}); they close at their next frame.`;
    const { closedSockets } = (await res.json()) as { closedSockets: number };
    return `Closed ${closedSockets} open chat socket(s) of theirs.`;
  } catch (error) {
    return `Could not reach ${site} (${(error as Error).message}); their open chat sockets close at their next frame.`;
  }
}

/**
 * Asks the running site to apply an upheld message's removal in its chat
 * now (worker/routes/enforcement.ts `POST /api/enforcement/removals/…`): a
 * picture's file and place in the chat are deleted, a message's text
 * hidden. The removal is already in D1 and every read of the chat applies
 * it, so a failure is reported, not fatal.
 */
async function applyRemoval(conversationId: string): Promise<string> {
  const site = values.site?.trim() || process.env.FABLED_SITE_URL?.trim();
  if (!site) return "The chat applies it the next time it is opened, or at the daily sweep (pass --site URL to apply it now).";
  try {
    const res = await fetch(new URL(`/api/enforcement/removals/${encodeURIComponent(conversationId)}`, site), { method: "POST" });
    if (!res.ok) return `Could not apply it in the chat now (${site} answered ${res.status}); it is applied the next time the chat is opened.`;
    const { removed } = (await res.json()) as { removed: number };
    return `Applied in the chat now (${removed} changed).`;
  } catch (error) {
    return `Could not reach ${site} (${(error as Error).message}); it is applied the next time the chat is opened.`;
  }
}

try {
  switch (command) {
    case "reports": {
      const reports = await listOpenReports(db);
      if (reports.length === 0) console.log("No open reports.");
      for (const report of reports) printReportLine(report);
      break;
    }
    case "show": {
      const report = await getReport(db, reportId(rest[0]));
      const { summary, history } = await describeTarget(db, report);
      console.log(`Report #${report.id} (${report.status})`);
      console.log(`  filed      ${when(report.createdAt)} by ${report.reporter ?? "automatic screening"}`);
      console.log(`  reason     ${report.reason}`);
      if (report.details) console.log(`  details    ${report.details}`);
      console.log(`  target     ${summary}`);
      if (report.openOnTarget > 1) console.log(`  open       ${report.openOnTarget} open reports on this target`);
      if (report.resolvedAt) console.log(`  closed     ${when(report.resolvedAt)}`);
      console.log(`  what the reporter saw:\n${report.excerpt.replace(/^/gm, "    ")}`);
      for (const action of history) {
        console.log(`  ${when(action.createdAt)}  ${action.action} by ${action.actor}${action.reason ? `: ${action.reason}` : ""}`);
      }
      break;
    }
    case "uphold": {
      const id = reportId(rest[0]);
      const report = await getReport(db, id);
      console.log(await upholdReport(db, id, who));
      if (report.targetType === "message" && report.conversationId) console.log(await applyRemoval(report.conversationId));
      // Visitors' cached copies of the page (docs/decisions/0010-edge-cache-and-latency.md).
      const purged = await purgeAfterOperatorAction(cachedCopiesOf(report), { remote: values.remote, env: process.env });
      if (purged) console.log(purged);
      break;
    }
    case "dismiss":
      console.log(await dismissReport(db, reportId(rest[0]), who));
      break;
    case "suspend":
      if (!rest[0]) fail(`Name the person: suspend @username.\n\n${USAGE}`);
      console.log(await suspendUser(db, rest[0], who));
      console.log(await closeSuspendedSockets((await findUser(db, rest[0])).id));
      break;
    case "restore":
      if (rest[0] === "character") console.log(await restoreCharacter(db, reportId(rest[1]), who));
      else if (rest[0]) console.log(await unsuspendUser(db, rest[0], who));
      else fail(`Say what to restore: restore @username, or restore character N.\n\n${USAGE}`);
      break;
    case "screening": {
      const lines = await listScreening(db);
      if (lines.length === 0) console.log("Nothing screened out yet.");
      for (const line of lines) {
        console.log(
          `${when(line.createdAt)}  ${line.outcome}  ${line.subjectType}${line.subjectId ? ` ${line.subjectId}` : ""}  ${line.categories}  (${line.provider})`,
        );
        console.log(`      "${oneLine(line.content, 100)}"`);
      }
      break;
    }
    default:
      fail(`Unknown command "${command}".\n\n${USAGE}`);
  }
} catch (error) {
  if (error instanceof OperatorError) fail(error.message);
  process.stderr.write(`${(error as Error).message}\n`);
  process.exit(1);
}
