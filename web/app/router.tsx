/**
 * Routes of SPEC.md §2. Home is in the entry bundle (first visits land there);
 * every other page is its own lazily loaded chunk.
 *
 * React Router's declarative mode (`<BrowserRouter>` + `<Routes>`), not its
 * data router: Fabled loads data with React Query, and the data router's code
 * was 17 KB of a first visit's 140 KB budget (docs/decisions/0004). What it
 * gave besides — an error page for a page that throws, scroll restoration —
 * is RouteErrorBoundary and useScrollRestoration.
 */
import { lazy } from "react";
import { Route, Routes } from "react-router";
import { HomePage } from "../routes/home.tsx";
import { RootLayout } from "./root-layout.tsx";

const CharacterPage = lazy(() => import("../routes/character.tsx").then((m) => ({ default: m.CharacterPage })));
const ProfilePage = lazy(() => import("../routes/profile.tsx").then((m) => ({ default: m.ProfilePage })));
const CreateCharacterPage = lazy(() =>
  import("../routes/create-character.tsx").then((m) => ({ default: m.CreateCharacterPage })),
);
const EditCharacterPage = lazy(() => import("../routes/edit-character.tsx").then((m) => ({ default: m.EditCharacterPage })));
const MyCharactersPage = lazy(() => import("../routes/my-characters.tsx").then((m) => ({ default: m.MyCharactersPage })));
const ChatPage = lazy(() => import("../routes/chat.tsx").then((m) => ({ default: m.ChatPage })));
const ChatsPage = lazy(() => import("../routes/chats.tsx").then((m) => ({ default: m.ChatsPage })));
const NotificationsPage = lazy(() => import("../routes/notifications.tsx").then((m) => ({ default: m.NotificationsPage })));
const PrivacyPolicyPage = lazy(() =>
  import("../routes/legal/privacy-policy.tsx").then((m) => ({ default: m.PrivacyPolicyPage })),
);
const TermsOfUsePage = lazy(() => import("../routes/legal/terms-of-use.tsx").then((m) => ({ default: m.TermsOfUsePage })));
const DisclaimerPage = lazy(() => import("../routes/legal/disclaimer.tsx").then((m) => ({ default: m.DisclaimerPage })));
const FavoritesPage = lazy(() => import("../routes/favorites.tsx").then((m) => ({ default: m.FavoritesPage })));
const CreatorPage = lazy(() => import("../routes/creator.tsx").then((m) => ({ default: m.CreatorPage })));
const SettingsModelsPage = lazy(() => import("../routes/settings-models.tsx").then((m) => ({ default: m.SettingsModelsPage })));
const SharedStoryPage = lazy(() => import("../routes/shared-story.tsx").then((m) => ({ default: m.SharedStoryPage })));
const LorebooksPage = lazy(() => import("../routes/lorebooks.tsx").then((m) => ({ default: m.LorebooksPage })));
const LorebookPage = lazy(() => import("../routes/lorebooks.tsx").then((m) => ({ default: m.LorebookPage })));
const JoinPage = lazy(() => import("../routes/join.tsx").then((m) => ({ default: m.JoinPage })));
const NotFoundPage = lazy(() => import("../routes/not-found.tsx").then((m) => ({ default: m.NotFoundPage })));

/** Every page, inside the frame of RootLayout. */
export function AppRoutes() {
  return (
    <Routes>
      <Route element={<RootLayout />}>
        <Route index element={<HomePage />} />
        <Route path="character/:id" element={<CharacterPage />} />
        <Route path="chat/:conversationId" element={<ChatPage />} />
        <Route path="chats" element={<ChatsPage />} />
        <Route path="join/:token" element={<JoinPage />} />
        <Route path="s/:token" element={<SharedStoryPage />} />
        <Route path="profile" element={<ProfilePage />} />
        <Route path="settings/models" element={<SettingsModelsPage />} />
        <Route path="create-character" element={<CreateCharacterPage />} />
        <Route path="edit-character/:id" element={<EditCharacterPage />} />
        <Route path="my-characters" element={<MyCharactersPage />} />
        <Route path="favorites" element={<FavoritesPage />} />
        <Route path="notifications" element={<NotificationsPage />} />
        <Route path="lorebooks" element={<LorebooksPage />} />
        <Route path="lorebooks/:id" element={<LorebookPage />} />
        <Route path="u/:username" element={<CreatorPage />} />
        <Route path="privacy-policy" element={<PrivacyPolicyPage />} />
        <Route path="terms-of-use" element={<TermsOfUsePage />} />
        <Route path="disclaimer" element={<DisclaimerPage />} />
        <Route path="*" element={<NotFoundPage />} />
      </Route>
    </Routes>
  );
}
