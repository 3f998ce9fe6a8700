/**
 * API keys of people's model connections, encrypted at rest
 * (docs/decisions/0018-your-own-model.md). Shared by the Worker (which
 * encrypts on save) and the conversation room (which decrypts for a reply);
 * WebCrypto only.
 *
 * - Cipher: AES-256-GCM, a fresh 96-bit IV per encryption (NIST SP 800-38D
 *   §8.2.2), the 128-bit tag appended by WebCrypto.
 * - Key: HKDF-SHA-256 of the secret `MODEL_KEYS_SECRET` (salt "fabled",
 *   info "fabled model keys v1"), so the secret itself is never the AES key.
 *   Without it, development and test runs use a fixed, public development
 *   secret; any other environment refuses (`ModelKeysUnavailable`).
 * - Additional data: `{connectionId}:{userId}`, so a ciphertext copied onto
 *   another row or another person's row does not decrypt.
 * - Stored text: `v1.{keyId}.{iv base64url}.{ciphertext base64url}`, where
 *   `keyId` is the first 8 hex digits of SHA-256 of the secret: rows still
 *   under an old secret can be counted during a rotation.
 * - Rotation: the new secret in `MODEL_KEYS_SECRET`, the old one in
 *   `MODEL_KEYS_SECRET_PREVIOUS`; decryption picks the secret by `keyId`, and
 *   every save writes under the new one.
 */

/** The bindings the key functions read. */
export interface ModelKeysEnv {
  ENVIRONMENT?: string;
  MODEL_KEYS_SECRET?: string;
  MODEL_KEYS_SECRET_PREVIOUS?: string;
}

/** No secret is configured outside development and tests: keys cannot be stored or read. */
export class ModelKeysUnavailable extends Error {
  override readonly name = "ModelKeysUnavailable";
}

/** Public, fixed: only ever used when ENVIRONMENT is development or test. */
const DEVELOPMENT_SECRET = "fabled-development-model-keys-secret";

/** True for local runs (`npm start`, tests): loopback endpoints and the development secret are allowed. */
export function isDevelopment(env: { ENVIRONMENT?: string }): boolean {
  return env.ENVIRONMENT === "development" || env.ENVIRONMENT === "test";
}

const encoder = new TextEncoder();

function base64url(bytes: Uint8Array): string {
  let binary = "";
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

function fromBase64url(text: string): Uint8Array<ArrayBuffer> {
  const binary = atob(text.replace(/-/g, "+").replace(/_/g, "/"));
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

async function keyId(secret: string): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", encoder.encode(secret)));
  return [...digest.slice(0, 4)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

async function aesKey(secret: string): Promise<CryptoKey> {
  const material = await crypto.subtle.importKey("raw", encoder.encode(secret), "HKDF", false, ["deriveKey"]);
  return crypto.subtle.deriveKey(
    { name: "HKDF", hash: "SHA-256", salt: encoder.encode("fabled"), info: encoder.encode("fabled model keys v1") },
    material,
    { name: "AES-GCM", length: 256 },
    false,
    ["encrypt", "decrypt"],
  );
}

/** The secrets that may decrypt, current first. @throws ModelKeysUnavailable without one outside development. */
function secrets(env: ModelKeysEnv): string[] {
  const current = env.MODEL_KEYS_SECRET || (isDevelopment(env) ? DEVELOPMENT_SECRET : "");
  if (!current) throw new ModelKeysUnavailable("MODEL_KEYS_SECRET is not set");
  return env.MODEL_KEYS_SECRET_PREVIOUS ? [current, env.MODEL_KEYS_SECRET_PREVIOUS] : [current];
}

const additionalData = (owner: KeyOwner) => encoder.encode(`${owner.connectionId}:${owner.userId}`);

/** The row a key belongs to: its ciphertext only decrypts for the same connection and person. */
export interface KeyOwner {
  connectionId: string;
  userId: string;
}

/**
 * Encrypts `apiKey` for the connection `owner` under the current secret.
 * Returns the stored text (`v1.{keyId}.{iv}.{ciphertext}`).
 * @throws ModelKeysUnavailable when no secret is configured outside development.
 */
export async function encryptApiKey(env: ModelKeysEnv, owner: KeyOwner, apiKey: string): Promise<string> {
  const [secret] = secrets(env);
  const iv = crypto.getRandomValues(new Uint8Array(12));
  const sealed = await crypto.subtle.encrypt(
    { name: "AES-GCM", iv, additionalData: additionalData(owner) },
    await aesKey(secret!),
    encoder.encode(apiKey),
  );
  return `v1.${await keyId(secret!)}.${base64url(iv)}.${base64url(new Uint8Array(sealed))}`;
}

/**
 * The API key in `stored` (encryptApiKey's text) for the connection `owner`.
 * @throws ModelKeysUnavailable when no secret is configured, or none has the
 *   stored key id (rotated away), or the text was tampered with or belongs to another row.
 */
export async function decryptApiKey(env: ModelKeysEnv, owner: KeyOwner, stored: string): Promise<string> {
  const [version, id, iv, sealed] = stored.split(".");
  if (version !== "v1" || !id || !iv || !sealed) throw new ModelKeysUnavailable("unreadable stored key");
  for (const secret of secrets(env)) {
    if ((await keyId(secret)) !== id) continue;
    try {
      const plain = await crypto.subtle.decrypt(
        { name: "AES-GCM", iv: fromBase64url(iv), additionalData: additionalData(owner) },
        await aesKey(secret),
        fromBase64url(sealed),
      );
      return new TextDecoder().decode(plain);
    } catch {
      throw new ModelKeysUnavailable("stored key does not decrypt for this connection");
    }
  }
  throw new ModelKeysUnavailable(`no secret has key id ${id}`);
}

/**
 * The key id new ciphertexts carry (`v1.{keyId}.…`): rows whose stored text
 * starts otherwise were written under an older secret.
 * @throws ModelKeysUnavailable when no secret is configured outside development.
 */
export async function currentKeyId(env: ModelKeysEnv): Promise<string> {
  return keyId(secrets(env)[0]!);
}

/** What a person is shown of a key: its last four characters. */
export function keyHint(apiKey: string): string {
  return apiKey.slice(-4);
}
