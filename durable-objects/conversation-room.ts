/**
 * ConversationRoom — one Durable Object per conversation (DESIGN.md "Shape").
 * It will hold the conversation's messages in its own SQLite and its
 * hibernatable WebSockets (issue "Real-time chat"). For now it only accepts
 * nothing: the binding and class exist so deploys and later issues build on them.
 */
import { DurableObject } from "cloudflare:workers";

export class ConversationRoom extends DurableObject<Env> {
  override async fetch(_request: Request): Promise<Response> {
    return Response.json({ error: "Real-time chat is not available yet", code: "not_found" }, { status: 404 });
  }
}
