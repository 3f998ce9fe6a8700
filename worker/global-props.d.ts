// Types `ctx.exports` / `exports` from "cloudflare:workers" with our main module.
declare namespace Cloudflare {
  interface GlobalProps {
    mainModule: typeof import("./index.ts");
    durableNamespaces: "ConversationRoom" | "PersonSockets" | "Inbox";
  }
}
