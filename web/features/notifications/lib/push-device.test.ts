import { describe, expect, it } from "vitest";
import { base64UrlBytes } from "./push-device.ts";

describe("base64UrlBytes", () => {
  it("reads base64url without padding, as VAPID keys are written", () => {
    expect([...base64UrlBytes("AQID_-8")]).toEqual([1, 2, 3, 255, 239]);
    expect(base64UrlBytes("B".repeat(87))).toHaveLength(65);
  });
});
