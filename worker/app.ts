/**
 * The Hono app: security headers, the API routes, and the one error handler
 * that gives every failure the JSON shape of DESIGN.md "Errors".
 */
import { Hono } from "hono";
import { HTTPException } from "hono/http-exception";
import { secureHeaders } from "hono/secure-headers";
import type { AppEnv } from "./env.ts";
import { ApiError } from "./lib/errors.ts";
import { d1Session } from "./middleware/d1-session.ts";
import { privateByDefault } from "./middleware/edge-cache.ts";
import { serverTiming } from "./middleware/server-timing.ts";
import { sameOrigin, session } from "./middleware/session.ts";
import { CONTENT_SECURITY_POLICY, REFERRER_POLICY } from "./lib/security-headers.ts";
import { accountRoutes } from "./routes/account.ts";
import { authRoutes } from "./routes/auth.ts";
import { blocksRoutes } from "./routes/blocks.ts";
import { cardsRoutes } from "./routes/cards.ts";
import { characterAssetsRoutes } from "./routes/character-assets.ts";
import { charactersRoutes } from "./routes/characters.ts";
import { memoriesRoutes } from "./routes/memories.ts";
import { characterLorebooksRoutes, lorebooksRoutes } from "./routes/lorebooks.ts";
import { speechRoutes } from "./routes/speech.ts";
import { transcriptionsRoutes } from "./routes/transcriptions.ts";
import { voicesRoutes } from "./routes/voices.ts";
import { conversationsRoutes } from "./routes/conversations.ts";
import { invitesRoutes } from "./routes/invites.ts";
import { characterCommentsRoutes, commentsRoutes } from "./routes/comments.ts";
import { enforcementRoutes } from "./routes/enforcement.ts";
import { favoritesListRoutes, favoritesRoutes } from "./routes/favorites.ts";
import { modelConnectionsRoutes } from "./routes/model-connections.ts";
import { notificationSettingsRoutes, notificationsRoutes, notificationsSocketRoutes } from "./routes/notifications.ts";
import { pushRoutes } from "./routes/push.ts";
import { myCharactersRoutes } from "./routes/my-characters.ts";
import { personasRoutes } from "./routes/personas.ts";
import { profileRoutes } from "./routes/profile.ts";
import { reportsRoutes } from "./routes/reports.ts";
import { shareRoutes } from "./routes/share.ts";
import { conversationSharesRoutes, sharesRoutes } from "./routes/shares.ts";
import { tagsRoutes } from "./routes/tags.ts";
import { usersRoutes } from "./routes/users.ts";
import { objectsRoutes, uploadsRoutes } from "./routes/uploads.ts";
import { imagesRoutes } from "./routes/images.ts";
import { wsRoutes } from "./routes/ws.ts";

const app = new Hono<AppEnv>();

// Server-Timing: time in the Worker and the D1 queries run (worker/middleware/server-timing.ts);
// answers are private unless the edge cache made them public (worker/middleware/edge-cache.ts).
app.use("/api/*", serverTiming, privateByDefault);

app.use(
  "*",
  secureHeaders({
    contentSecurityPolicy: CONTENT_SECURITY_POLICY,
    referrerPolicy: REFERRER_POLICY,
    xFrameOptions: "DENY",
    xContentTypeOptions: "nosniff",
    crossOriginResourcePolicy: false,
    permissionsPolicy: { camera: [], microphone: ["self"], geolocation: [] },
  }),
);

// Every D1 query of a request runs in one Sessions API session, continued
// with the caller's bookmark (worker/middleware/d1-session.ts).
app.use("/api/*", sameOrigin, d1Session, session);
// "/ws/*" matches "/ws" itself too: the chat socket and the notifications socket.
app.use("/ws/*", d1Session);

const routes = app.basePath("/api").route("/tags", tagsRoutes).route("/characters", charactersRoutes)
  .route("/characters", favoritesRoutes)
  .route("/characters", characterCommentsRoutes)
  .route("/characters", cardsRoutes)
  .route("/characters", characterAssetsRoutes)
  .route("/characters", characterLorebooksRoutes)
  .route("/lorebooks", lorebooksRoutes)
  .route("/my-characters", myCharactersRoutes)
  .route("/", uploadsRoutes)
  .route("/comments", commentsRoutes)
  .route("/", authRoutes)
  .route("/profile", profileRoutes)
  .route("/profile", accountRoutes)
  .route("/profile", notificationSettingsRoutes)
  .route("/notifications", notificationsRoutes)
  .route("/push", pushRoutes)
  .route("/personas", personasRoutes)
  .route("/model-connections", modelConnectionsRoutes)
  .route("/reports", reportsRoutes)
  .route("/conversations", conversationsRoutes)
  .route("/invites", invitesRoutes)
  .route("/conversations", speechRoutes)
  .route("/conversations", memoriesRoutes)
  .route("/conversations", conversationSharesRoutes)
  .route("/shares", sharesRoutes)
  .route("/voices", voicesRoutes)
  .route("/transcriptions", transcriptionsRoutes)
  .route("/images", imagesRoutes)
  .route("/favorites", favoritesListRoutes)
  .route("/users", usersRoutes)
  .route("/", blocksRoutes)
  .route("/enforcement", enforcementRoutes);

// Avatars (R2) are served outside /api: no session, immutable caching.
app.route("/objects", objectsRoutes);

// The chat socket (worker/routes/ws.ts) and the notifications socket
// (worker/routes/notifications.ts) check the session and Origin themselves.
app.route("/ws/notifications", notificationsSocketRoutes);
app.route("/ws", wsRoutes);

// Link previews written into the SPA shell, robots.txt and the sitemaps.
app.route("/", shareRoutes);

app.notFound((c) => c.json({ error: "Not found", code: "not_found" }, 404));

app.onError((err, c) => {
  if (err instanceof ApiError) {
    if (err.retryAfter !== undefined) c.header("Retry-After", String(err.retryAfter));
    return c.json(err.toBody(), err.status);
  }
  if (err instanceof HTTPException) {
    // Thrown by hono itself, e.g. a malformed JSON body in a validator.
    const status = err.status;
    if (status === 400) return c.json({ error: "Malformed request body", code: "validation_failed" }, 400);
    if (status === 413) return c.json({ error: "Request body is too large", code: "payload_too_large" }, 413);
    if (status === 401) return c.json({ error: "Unauthorized", code: "unauthorized" }, 401);
  }
  if (/FOREIGN KEY constraint failed/.test(String(err))) {
    // A row this request refers to was deleted while it ran.
    return c.json({ error: "It no longer exists. Please refresh and try again.", code: "not_found" }, 404);
  }
  console.error("unhandled error", c.req.method, c.req.path, err);
  return c.json({ error: "Something went wrong on our side. Please try again.", code: "internal" }, 500);
});

export type AppType = typeof routes;
export default app;
