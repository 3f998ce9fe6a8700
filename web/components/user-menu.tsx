/**
 * The signed-in person's menu in the header (SPEC.md §2 "User menu"): avatar
 * and first name (or e-mail); Profile, My Characters, Favorites (issue 16),
 * My Chats (the person's conversations, to find them again), Models (their
 * model connections, /settings/models), Lorebooks (/lorebooks), Logout. Loaded lazily by
 * the header, so visitors never download the menu code.
 */
import { BookOpen, ChevronDown, Cpu, Heart, LogOut, MessagesSquare, Sparkles, UserRound } from "lucide-react";
import { Link } from "react-router";
import { type CurrentUser, LOGOUT_PATH } from "../lib/auth.ts";
import { userAvatarLetter, userMenuName } from "../lib/user-display.ts";
import { Avatar } from "./ui/avatar.tsx";
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuLabel,
  DropdownMenuSeparator,
  DropdownMenuTrigger,
} from "./ui/dropdown-menu.tsx";

export function UserMenu({ user }: { user: CurrentUser }) {
  const name = userMenuName(user);
  return (
    <DropdownMenu modal={false}>
      <DropdownMenuTrigger
        className="group flex h-10 max-w-56 cursor-pointer items-center gap-2 rounded-full border border-border bg-card py-1 pr-2 pl-1 text-sm font-medium transition-colors hover:bg-surface focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-ring data-[state=open]:bg-surface sm:pr-3"
      >
        <Avatar src={user.profileImageUrl} fallback={userAvatarLetter(user)} className="size-8" />
        {/* The name is the button's accessible name; phones show only the avatar. */}
        <span className="sr-only sm:not-sr-only sm:truncate">{name || "Account"}</span>
        <ChevronDown
          aria-hidden="true"
          className="size-4 shrink-0 text-muted-foreground transition-transform group-data-[state=open]:rotate-180"
        />
      </DropdownMenuTrigger>
      <DropdownMenuContent align="end" className="w-60">
        <DropdownMenuLabel className="flex flex-col gap-0.5 text-foreground">
          <span className="truncate text-sm font-semibold">{user.name || name}</span>
          <span className="truncate text-xs font-normal text-muted-foreground">{user.username}</span>
        </DropdownMenuLabel>
        <DropdownMenuSeparator />
        <DropdownMenuItem asChild>
          <Link to="/profile">
            <UserRound aria-hidden="true" /> Profile
          </Link>
        </DropdownMenuItem>
        <DropdownMenuItem asChild>
          <Link to="/my-characters">
            <Sparkles aria-hidden="true" /> My Characters
          </Link>
        </DropdownMenuItem>
        <DropdownMenuItem asChild>
          <Link to="/favorites">
            <Heart aria-hidden="true" /> Favorites
          </Link>
        </DropdownMenuItem>
        <DropdownMenuItem asChild>
          <Link to="/chats">
            <MessagesSquare aria-hidden="true" /> My Chats
          </Link>
        </DropdownMenuItem>
        <DropdownMenuItem asChild>
          <Link to="/lorebooks">
            <BookOpen aria-hidden="true" /> Lorebooks
          </Link>
        </DropdownMenuItem>
        <DropdownMenuItem asChild>
          <Link to="/settings/models">
            <Cpu aria-hidden="true" /> Models
          </Link>
        </DropdownMenuItem>
        <DropdownMenuSeparator />
        <DropdownMenuItem asChild>
          {/* A server route: a full navigation, not an SPA link. */}
          <a href={LOGOUT_PATH}>
            <LogOut aria-hidden="true" /> Logout
          </a>
        </DropdownMenuItem>
      </DropdownMenuContent>
    </DropdownMenu>
  );
}
