/** The "← Back" link to Home at the top of the account pages (Profile, My Characters, My Chats, Favorites). */
import { ArrowLeft } from "lucide-react";
import { Link } from "react-router";
import { Button } from "./ui/button.tsx";

export function BackHomeLink() {
  return (
    <Button asChild variant="ghost" size="sm" className="-ml-3 text-muted-foreground hover:text-foreground">
      <Link to="/">
        <ArrowLeft aria-hidden="true" /> Back
      </Link>
    </Button>
  );
}
