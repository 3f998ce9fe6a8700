/**
 * `/api/profile` — the signed-in person's profile (SPEC.md §2 Edit Profile,
 * §5 rules, §7 calls): save it, and check whether a username is free.
 * Usernames are taken in their canonical form (schema/usernames.ts): the
 * API accepts "nightowl", "@nightowl" and "@NightOwl" as one name, stores
 * "@" + the name and compares case-insensitively.
 * Also the person's hidden tags (`GET`/`PUT /api/profile/hidden-tags`,
 * docs/decisions/0011-tag-filters.md) and content settings (`GET`/`PUT
 * /api/profile/content`: NSFW shown, 18 or older confirmed; issue 26,
 * worker/lib/content-settings.ts). Signed-in people only, each for
 * themselves; saves count against WRITE_RATE_LIMITER, username checks against
 * LOOKUP_RATE_LIMITER (worker/middleware/rate-limit.ts).
 */
import { Hono } from "hono";
import { bodyLimit } from "hono/body-limit";
import { z } from "zod";
import type { ContentSettings, CurrentUser, HiddenTags } from "../../schema/api.ts";
import type { AppEnv } from "../env.ts";
import { getContentSettings, setContentSettings } from "../lib/content-settings.ts";
import { ApiError } from "../lib/errors.ts";
import { getHiddenTags, setHiddenTags } from "../lib/hidden-tags.ts";
import { screenWrite, TEXT_OF } from "../lib/screening.ts";
import { assertOwnPicture } from "../lib/uploads.ts";
import { canonicalUsername, isUsernameAvailable, updateProfile } from "../lib/users.ts";
import { validate } from "../lib/validate.ts";
import { limitWrites } from "../middleware/rate-limit.ts";
import { requireUser } from "../middleware/session.ts";
import { contentSettingsInputSchema, hiddenTagsInputSchema, profileInputSchema } from "../../schema/inputs.ts";

/** Largest accepted hidden-tags body, bytes (MAX_HIDDEN_TAGS names of at most 24 characters, with room to spare). */
const HIDDEN_TAGS_MAX_BYTES = 8 * 1024;

/** Largest accepted content-settings body, bytes (two booleans). */
const CONTENT_SETTINGS_MAX_BYTES = 1024;

/** Largest accepted profile body, bytes (three short fields and a bio of at most 500 characters). */
const PROFILE_MAX_BYTES = 16 * 1024;

/** A username as typed, canonicalised ("@" added when missing), then held to the SPEC.md §5 rules. */
const usernameSchema = z
  .string({ error: "Username must be at least 2 characters" })
  .transform(canonicalUsername)
  .pipe(profileInputSchema.shape.username);

/** `PUT /api/profile`: the form's schema, with the username canonicalised first. */
const profileBodySchema = profileInputSchema.extend({ username: usernameSchema });

export const USERNAME_TAKEN = "This username is already taken. Please choose another one.";

export const profileRoutes = new Hono<AppEnv>()
  .use(requireUser)
  .put("/", limitWrites("WRITE_RATE_LIMITER"), bodyLimit({ maxSize: PROFILE_MAX_BYTES }), validate("json", profileBodySchema), async (c) => {
    const user = c.var.user;
    const input = c.req.valid("json");
    if (input.profileImageUrl !== user.profileImageUrl) assertOwnPicture(input.profileImageUrl, user.id, "profileImageUrl");
    // Shown on the person's page and beside their comments (issue 21).
    await screenWrite(c.env, { subjectType: "profile", text: TEXT_OF.profile(input), nsfw: false, who: { userId: user.id } });
    const result = await updateProfile(c.env.DB, user.id, input);
    if (result === "username_taken") throw new ApiError("conflict", USERNAME_TAKEN);
    c.header("Cache-Control", "no-store");
    return c.json(result satisfies CurrentUser, 200);
  })
  // Each answer says whether a name is taken: limited so names cannot be harvested.
  .get("/check-username/:username", limitWrites("LOOKUP_RATE_LIMITER"), async (c) => {
    const user = c.var.user;
    const username = usernameSchema.safeParse(c.req.param("username"));
    // A name the profile would refuse is simply not available.
    const available = username.success && (await isUsernameAvailable(c.env.DB, username.data, user.id));
    c.header("Cache-Control", "no-store");
    return c.json({ available }, 200);
  })
  // `{ tags }`: the person's hidden tags, sorted.
  .get("/hidden-tags", async (c) => {
    const tags = await getHiddenTags(c.env.DB, c.var.user.id);
    c.header("Cache-Control", "private, no-store");
    return c.json({ tags } satisfies HiddenTags, 200);
  })
  // Replaces the whole list; answers it as stored (normalised: lower case, no repeats, sorted).
  .put(
    "/hidden-tags",
    limitWrites("WRITE_RATE_LIMITER"),
    bodyLimit({ maxSize: HIDDEN_TAGS_MAX_BYTES }),
    validate("json", hiddenTagsInputSchema),
    async (c) => {
      const tags = await setHiddenTags(c.env.DB, c.var.user.id, c.req.valid("json").tags);
      c.header("Cache-Control", "private, no-store");
      return c.json({ tags } satisfies HiddenTags, 200);
    },
  )
  // `{ showNsfw, adultConfirmedAt }`.
  .get("/content", async (c) => {
    const settings = await getContentSettings(c.env.DB, c.var.user.id);
    c.header("Cache-Control", "private, no-store");
    return c.json(settings satisfies ContentSettings, 200);
  })
  // NSFW on the first time needs confirmAdult: true (recorded with its time); 400 without it.
  .put(
    "/content",
    limitWrites("WRITE_RATE_LIMITER"),
    bodyLimit({ maxSize: CONTENT_SETTINGS_MAX_BYTES }),
    validate("json", contentSettingsInputSchema),
    async (c) => {
      const settings = await setContentSettings(c.env.DB, c.var.user.id, c.req.valid("json"));
      c.header("Cache-Control", "private, no-store");
      return c.json(settings satisfies ContentSettings, 200);
    },
  );
