/**
 * `/settings/models` — the person's model connections (DESIGN.md "Your own
 * model (turn 3)"): a spinner while the person loads; visitors are sent to
 * "/" once it is known they are not signed in.
 */
import { useEffect } from "react";
import { useNavigate } from "react-router";
import { BackHomeLink } from "../components/back-home-link.tsx";
import { PageSpinner } from "../components/page-spinner.tsx";
import { ModelConnectionsSection } from "../features/model-connections/components/model-connections-section.tsx";
import { useUser } from "../lib/auth.ts";

export function SettingsModelsPage() {
  const { user, isLoading } = useUser();
  const navigate = useNavigate();

  useEffect(() => {
    if (!isLoading && !user) navigate("/", { replace: true });
  }, [isLoading, user, navigate]);

  if (isLoading || !user) return <PageSpinner />;

  return (
    <div className="mx-auto max-w-2xl px-4 py-6 md:py-10">
      <title>Models — Fabled</title>
      <BackHomeLink />
      <div className="mt-4">
        <ModelConnectionsSection key={user.id} />
      </div>
    </div>
  );
}
