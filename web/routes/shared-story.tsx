/** `/s/:token` — a shared story (DESIGN.md "Sharing and forks"). */
import { useParams } from "react-router";
import { SharedStory } from "../features/shares/components/shared-story.tsx";

export function SharedStoryPage() {
  const { token = "" } = useParams();
  return <SharedStory key={token} token={token} />;
}
