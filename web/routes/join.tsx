/** `/join/:token` — an invitation to a shared room (DESIGN.md "Shared rooms"). */
import { useParams } from "react-router";
import { JoinInvite } from "../features/chat/components/join-invite.tsx";

export function JoinPage() {
  const { token = "" } = useParams();
  return <JoinInvite key={token} token={token} />;
}
