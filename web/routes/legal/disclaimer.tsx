/** `/disclaimer` (SPEC.md §1 "Legal pages"). */
import { Link } from "react-router";
import { LegalPage } from "../../components/legal-page.tsx";

export function DisclaimerPage() {
  return (
    <LegalPage
      title="Disclaimer"
      intro={
        <p>
          Please read this Disclaimer carefully before using Fabled. It explains what Fabled is, and what it is not.
        </p>
      }
    >
      <h2>Adults only (18+)</h2>
      <p>
        Fabled is strictly for adults aged 18 and over. The platform contains adult and sexually explicit content.
        If you are under 18, or if such content is illegal where you live, you must leave now.
      </p>

      <h2>All characters and stories are fictional</h2>
      <p>
        Every character on Fabled, and every reply they write, is produced by artificial intelligence. The content is
        fictional. Any resemblance to real persons, living or dead, or to real events is coincidental. AI characters
        can make mistakes, contradict themselves or say things that are untrue or inappropriate; do not rely on
        anything they say.
      </p>

      <h2>For entertainment only</h2>
      <p>
        Fabled is provided for entertainment purposes only. It is not a substitute for professional advice of any
        kind, including medical, mental health, legal or financial advice, and it is not a crisis service. If you are
        in danger or need help, contact your local emergency services.
      </p>

      <h2>Your conversations are recorded</h2>
      <p>
        Conversations on Fabled are stored and recorded, and may be reviewed and used to improve our AI models.
        Conversations that appear to involve illegal activity may be reported to law enforcement and other
        authorities. Details are in our <Link to="/privacy-policy">Privacy Policy</Link>.
      </p>

      <h2>Zero tolerance for CSAM</h2>
      <p>
        We have zero tolerance for child sexual abuse material (CSAM) and for any sexual content involving minors,
        real or fictional. Such content is removed, the accounts involved are banned, and it is reported to the
        National Center for Missing &amp; Exploited Children (NCMEC) and law enforcement.
      </p>
      <p>
        If you see such content, or anything else illegal, report it: a character, a comment or a character's reply in
        your chat each have a Report action. Our team reviews reports, removes content and suspends accounts.
      </p>

      <h2>User-created characters</h2>
      <p>
        Most characters are created by our users. Fabled does not endorse user-created characters or their
        descriptions and is not responsible for them, although we remove content that breaks our{" "}
        <Link to="/terms-of-use">Terms of Use</Link>.
      </p>

      <h2>Third-party sign-in</h2>
      <p>
        Sign-in is provided by a third-party sign-in service. Fabled is not responsible for the availability or
        practices of that service, which has its own terms and privacy policy.
      </p>

      <h2>Operated from the United States</h2>
      <p>
        Fabled is operated from the United States. We make no claim that the service is appropriate or lawful to use
        in other locations; if you use it from elsewhere, you are responsible for following your local laws.
      </p>
    </LegalPage>
  );
}
