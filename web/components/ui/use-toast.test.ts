import { describe, expect, it } from "vitest";
import { TOAST_LIMIT, type ToastData, toastReducer } from "./use-toast.ts";

const t = (id: string): ToastData => ({ id, title: `toast ${id}`, open: true });

describe("toastReducer", () => {
  it("shows one toast at a time, the newest", () => {
    expect(TOAST_LIMIT).toBe(1);
    const state = toastReducer(toastReducer({ toasts: [] }, { type: "add", toast: t("1") }), {
      type: "add",
      toast: t("2"),
    });
    expect(state.toasts.map((x) => x.id)).toEqual(["2"]);
  });

  it("closes a dismissed toast without removing it", () => {
    const state = toastReducer({ toasts: [t("1")] }, { type: "dismiss", toastId: "1" });
    expect(state.toasts).toEqual([{ ...t("1"), open: false }]);
  });

  it("removes a toast by id", () => {
    expect(toastReducer({ toasts: [t("1")] }, { type: "remove", toastId: "1" }).toasts).toEqual([]);
    expect(toastReducer({ toasts: [t("1")] }, { type: "remove", toastId: "9" }).toasts).toHaveLength(1);
  });
});
