/** `/create-character` — Create Character (SPEC.md §2): the form, or "Sign In Required" for visitors. */
import { PageSpinner } from "../components/page-spinner.tsx";
import { SignInRequired } from "../components/sign-in-required.tsx";
import { useUser } from "../lib/auth.ts";
import { CharacterForm } from "../features/characters/components/character-form.tsx";
import { usePopularTags } from "../features/tags/api/get-tags.ts";
import { CharacterFormPage } from "./character-form-page.tsx";

export function CreateCharacterPage() {
  const { user, isLoading } = useUser();
  const { tags, isLoading: tagsLoading } = usePopularTags();

  if (isLoading) return <PageSpinner />;
  if (!user) return <SignInRequired message="Please sign in to create a character" />;

  return (
    <CharacterFormPage
      title="Create Character"
      subtitle="Design a character for people to meet, talk to and fall into stories with."
    >
      <CharacterForm popularTags={tags} popularLoading={tagsLoading} />
    </CharacterFormPage>
  );
}
