/**
 * Routes of SPEC.md §2. Home is in the entry bundle (first visits land there);
 * every other page is its own lazily loaded chunk.
 */
import { lazy } from "react";
import { createBrowserRouter } from "react-router";
import { HomePage } from "../routes/home.tsx";
import { RootLayout } from "./root-layout.tsx";
import { RouteError } from "./route-error.tsx";

const CharacterPage = lazy(() => import("../routes/character.tsx").then((m) => ({ default: m.CharacterPage })));
const ProfilePage = lazy(() => import("../routes/profile.tsx").then((m) => ({ default: m.ProfilePage })));
const CreateCharacterPage = lazy(() =>
  import("../routes/create-character.tsx").then((m) => ({ default: m.CreateCharacterPage })),
);
const EditCharacterPage = lazy(() => import("../routes/edit-character.tsx").then((m) => ({ default: m.EditCharacterPage })));
const MyCharactersPage = lazy(() => import("../routes/my-characters.tsx").then((m) => ({ default: m.MyCharactersPage })));
const ChatPage = lazy(() => import("../routes/chat.tsx").then((m) => ({ default: m.ChatPage })));
const ChatsPage = lazy(() => import("../routes/chats.tsx").then((m) => ({ default: m.ChatsPage })));
const PrivacyPolicyPage = lazy(() =>
  import("../routes/legal/privacy-policy.tsx").then((m) => ({ default: m.PrivacyPolicyPage })),
);
const TermsOfUsePage = lazy(() => import("../routes/legal/terms-of-use.tsx").then((m) => ({ default: m.TermsOfUsePage })));
const DisclaimerPage = lazy(() => import("../routes/legal/disclaimer.tsx").then((m) => ({ default: m.DisclaimerPage })));
const FavoritesPage = lazy(() => import("../routes/favorites.tsx").then((m) => ({ default: m.FavoritesPage })));
const CreatorPage = lazy(() => import("../routes/creator.tsx").then((m) => ({ default: m.CreatorPage })));
const SettingsModelsPage = lazy(() => import("../routes/settings-models.tsx").then((m) => ({ default: m.SettingsModelsPage })));
const JoinPage = lazy(() => import("../routes/join.tsx").then((m) => ({ default: m.JoinPage })));
const NotFoundPage = lazy(() => import("../routes/not-found.tsx").then((m) => ({ default: m.NotFoundPage })));

export function createRouter() {
  return createBrowserRouter([
    {
      element: <RootLayout />,
      errorElement: <RouteError />,
      children: [
        { index: true, element: <HomePage /> },
        { path: "character/:id", element: <CharacterPage /> },
        { path: "chat/:conversationId", element: <ChatPage /> },
        { path: "chats", element: <ChatsPage /> },
        { path: "join/:token", element: <JoinPage /> },
        { path: "profile", element: <ProfilePage /> },
        { path: "settings/models", element: <SettingsModelsPage /> },
        { path: "create-character", element: <CreateCharacterPage /> },
        { path: "edit-character/:id", element: <EditCharacterPage /> },
        { path: "my-characters", element: <MyCharactersPage /> },
        { path: "favorites", element: <FavoritesPage /> },
        { path: "u/:username", element: <CreatorPage /> },
        { path: "privacy-policy", element: <PrivacyPolicyPage /> },
        { path: "terms-of-use", element: <TermsOfUsePage /> },
        { path: "disclaimer", element: <DisclaimerPage /> },
        { path: "*", element: <NotFoundPage /> },
      ],
    },
  ]);
}
