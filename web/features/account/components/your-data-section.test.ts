import { describe, expect, it } from "vitest";
import { attachmentName } from "../api/download-export.ts";
import { confirmsUsername } from "./your-data-section.tsx";

describe("typing the username to delete the account", () => {
  it.each([
    ["@mira_42", true],
    ["mira_42", true],
    ["  @MIRA_42 ", true],
    ["@mira_4", false],
    ["", false],
    ["@", false],
    ["@mira_42x", false],
  ])("%j confirms @mira_42: %s", (typed, ok) => {
    expect(confirmsUsername(typed, "@mira_42")).toBe(ok);
  });
});

describe("the export's file name", () => {
  it("reads the UTF-8 name, else the plain one, else the fallback", () => {
    expect(attachmentName(`attachment; filename="fabled-mira-2026.zip"; filename*=UTF-8''fabled-m%C3%ADra-2026.zip`, "x.zip")).toBe("fabled-míra-2026.zip");
    expect(attachmentName(`attachment; filename="fabled-mira.zip"`, "x.zip")).toBe("fabled-mira.zip");
    expect(attachmentName(null, "x.zip")).toBe("x.zip");
  });
});
