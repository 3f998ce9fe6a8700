/**
 * A loopback Web Push service for the worker tests (Vitest global setup,
 * provided as `pushServiceBase`): it plays a push service (RFC 8030) and the
 * browsers subscribed to it, and checks what the site sends as a real one
 * and a real browser would.
 *
 * - `POST /devices` → `{id, path, p256dh, auth}`: a new device; the stub
 *   keeps its P-256 private key (node:crypto ECDH) and auth secret.
 *   `POST /devices/{id}/gone` makes its push address answer 410 from now on.
 * - `POST /push/{id}`: a push. Refused 401 unless `Authorization: vapid
 *   t=<JWT>, k=<key>` carries an ES256 JWT (RFC 8292) signed by `k`, whose
 *   `aud` is the origin the site pushed to (`https://localhost:<port>`: the
 *   site fetched https, the test's fetch seam reached this plain http
 *   stub), `exp` within 24 h and `sub` a mailto: or https: URL; 400 unless
 *   `Content-Encoding: aes128gcm` and the body decrypts (RFC 8291 / 8188)
 *   with the device's keys. Kept as the decrypted JSON; 201.
 * - `GET /devices/{id}/received` → `[{payload, ttl, topic, urgency}]`.
 */
import { createECDH, createPublicKey, createDecipheriv, hkdfSync, randomBytes, randomUUID, verify } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import type { TestProject } from "vitest/node";

declare module "vitest" {
  export interface ProvidedContext {
    /** Base URL of the loopback push service, `http://127.0.0.1:<port>`. */
    pushServiceBase: string;
  }
}

interface Device {
  ecdh: ReturnType<typeof createECDH>;
  publicKey: Buffer;
  auth: Buffer;
  gone: boolean;
  received: { payload: unknown; ttl: string | undefined; topic: string | undefined; urgency: string | undefined }[];
}

const b64url = (bytes: Buffer) => bytes.toString("base64url");

function body(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => resolve(Buffer.concat(chunks)));
    req.on("error", reject);
  });
}

/** Why the VAPID header is wrong, or null (RFC 8292 §2–3). */
function vapidProblem(header: string | undefined, port: number): string | null {
  const match = /^vapid t=([^,\s]+),\s*k=([A-Za-z0-9_-]+)$/.exec(header ?? "");
  if (!match) return "no vapid authorization";
  const [, jwt, k] = match;
  const [head, claims, signature] = jwt!.split(".");
  if (!head || !claims || !signature) return "malformed JWT";
  const point = Buffer.from(k!, "base64url");
  if (point.length !== 65 || point[0] !== 4) return "k is not an uncompressed P-256 point";
  const key = createPublicKey({ key: { kty: "EC", crv: "P-256", x: b64url(point.subarray(1, 33)), y: b64url(point.subarray(33)) }, format: "jwk" });
  const signed = verify("sha256", Buffer.from(`${head}.${claims}`), { key, dsaEncoding: "ieee-p1363" }, Buffer.from(signature, "base64url"));
  if (!signed) return "bad JWT signature";
  const header_ = JSON.parse(Buffer.from(head, "base64url").toString()) as { alg?: string };
  if (header_.alg !== "ES256") return "JWT alg is not ES256";
  const c = JSON.parse(Buffer.from(claims, "base64url").toString()) as { aud?: string; exp?: number; sub?: string };
  if (c.aud !== `https://localhost:${port}`) return `aud ${c.aud}`;
  const now = Date.now() / 1000;
  if (!c.exp || c.exp < now || c.exp > now + 24 * 3600 + 60) return "exp not within 24 h";
  if (!c.sub || !/^(mailto:|https:)/.test(c.sub)) return "sub is not mailto: or https:";
  return null;
}

/** The plaintext of an aes128gcm body for `device` (RFC 8291 §3.4, RFC 8188 §2), or throws. */
function decrypt(device: Device, bytes: Buffer): Buffer {
  const salt = bytes.subarray(0, 16);
  const idlen = bytes[20]!;
  const asPublic = bytes.subarray(21, 21 + idlen);
  const ciphertext = bytes.subarray(21 + idlen);
  const secret = device.ecdh.computeSecret(asPublic);
  const keyInfo = Buffer.concat([Buffer.from("WebPush: info\0"), device.publicKey, asPublic]);
  const ikm = Buffer.from(hkdfSync("sha256", secret, device.auth, keyInfo, 32));
  const cek = Buffer.from(hkdfSync("sha256", ikm, salt, Buffer.from("Content-Encoding: aes128gcm\0"), 16));
  const nonce = Buffer.from(hkdfSync("sha256", ikm, salt, Buffer.from("Content-Encoding: nonce\0"), 12));
  const decipher = createDecipheriv("aes-128-gcm", cek, nonce);
  decipher.setAuthTag(ciphertext.subarray(ciphertext.length - 16));
  const padded = Buffer.concat([decipher.update(ciphertext.subarray(0, ciphertext.length - 16)), decipher.final()]);
  let end = padded.length - 1;
  while (end >= 0 && padded[end] === 0) end -= 1;
  if (padded[end] !== 2) throw new Error("no last-record delimiter");
  return padded.subarray(0, end);
}

export async function startPushService(): Promise<{ base: string; close: () => Promise<void> }> {
  const devices = new Map<string, Device>();
  let port = 0;
  const server = createServer(async (req: IncomingMessage, res: ServerResponse) => {
    const send = (status: number, value?: unknown) => {
      res.writeHead(status, { "content-type": "application/json" });
      res.end(value === undefined ? "" : JSON.stringify(value));
    };
    const url = new URL(req.url ?? "/", "http://127.0.0.1");
    const parts = url.pathname.split("/").filter(Boolean);
    const payload = await body(req);
    if (req.method === "POST" && url.pathname === "/devices") {
      const ecdh = createECDH("prime256v1");
      ecdh.generateKeys();
      const id = randomUUID();
      const device: Device = { ecdh, publicKey: ecdh.getPublicKey(), auth: randomBytes(16), gone: false, received: [] };
      devices.set(id, device);
      return send(201, { id, path: `/push/${id}`, p256dh: b64url(device.publicKey), auth: b64url(device.auth) });
    }
    const device = devices.get(parts[1] ?? "");
    if (!device) return send(404, { error: "no such device" });
    if (req.method === "POST" && parts[0] === "devices" && parts[2] === "gone") {
      device.gone = true;
      return send(204);
    }
    if (req.method === "GET" && parts[0] === "devices" && parts[2] === "received") return send(200, device.received);
    if (req.method === "POST" && parts[0] === "push") {
      if (device.gone) return send(410, { error: "gone" });
      const problem = vapidProblem(req.headers.authorization, port);
      if (problem) return send(401, { error: problem });
      if (req.headers["content-encoding"] !== "aes128gcm") return send(400, { error: "not aes128gcm" });
      try {
        const plaintext = decrypt(device, payload);
        device.received.push({
          payload: JSON.parse(plaintext.toString("utf8")),
          ttl: req.headers.ttl as string | undefined,
          topic: req.headers.topic as string | undefined,
          urgency: req.headers.urgency as string | undefined,
        });
        return send(201);
      } catch (error) {
        return send(400, { error: `cannot decrypt: ${String(error)}` });
      }
    }
    return send(404, { error: "unknown" });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  port = (server.address() as AddressInfo).port;
  return { base: `http://127.0.0.1:${port}`, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

/** Vitest global setup: starts the push service and provides its base URL. */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const stub = await startPushService();
  project.provide("pushServiceBase", stub.base);
  return stub.close;
}
