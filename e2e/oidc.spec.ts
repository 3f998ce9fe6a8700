/**
 * Sign-in through a real OpenID Connect provider on loopback (started by
 * scripts/e2e.ts; the app on E2E_OIDC_BASE_URL is configured with it): click
 * Sign In, pass the provider, come back signed in, see the user menu, log out.
 */
import { expect, test } from "@playwright/test";

const oidcBase = process.env.E2E_OIDC_BASE_URL ?? "http://127.0.0.1:8789";

test.use({ baseURL: oidcBase });

// scripts/e2e.ts starts this app beside the other tests, not before them: wait until it answers.
test.beforeAll(async () => {
  test.setTimeout(150_000);
  const answers = async () => (await fetch(`${oidcBase}/api/auth/user`).catch(() => null))?.status ?? 0;
  await expect.poll(answers, { timeout: 140_000, intervals: [250] }).toBe(401);
});

test("sign in through the identity provider and log out", async ({ page, context }) => {
  await page.goto("/");
  const providerRequests: string[] = [];
  page.on("request", (req) => {
    if (req.isNavigationRequest()) providerRequests.push(new URL(req.url()).pathname);
  });
  await page.getByRole("link", { name: "Sign In" }).click();

  // Through the provider's authorize endpoint and our callback, back home.
  await expect(page).toHaveURL(`${oidcBase}/`);
  expect(providerRequests).toEqual(expect.arrayContaining(["/api/login", "/authorize", "/api/callback"]));
  const menu = page.getByRole("button", { name: /Odette/ });
  await expect(menu).toBeVisible();

  const user = await (await page.request.get("/api/auth/user")).json();
  expect(user).toMatchObject({ firstName: "Odette", lastName: "Provider", email: "odette@idp.example" });
  expect(user.username).toMatch(/^@odette/);
  const cookies = await context.cookies();
  const session = cookies.find((c) => c.name === "fabled_session");
  expect(session?.httpOnly).toBe(true);
  expect(session?.sameSite).toBe("Lax");
  // The sign-in cookies are gone once the flow is done.
  expect(cookies.filter((c) => c.name.startsWith("fabled_oauth_") && c.value !== "")).toEqual([]);

  await menu.click();
  await page.getByRole("menuitem", { name: "Logout" }).click();
  await expect(page.getByRole("link", { name: "Sign In" })).toBeVisible();
  expect((await page.request.get("/api/auth/user")).status()).toBe(401);
});

test("local sign-in does not exist when an identity provider is configured", async ({ request }) => {
  const res = await request.post("/api/login/dev", { data: { email: "x@example.test", firstName: "X" } });
  expect(res.status()).toBe(404);
});
