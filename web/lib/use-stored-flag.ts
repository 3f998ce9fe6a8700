/**
 * A yes/no setting remembered in this browser (localStorage `key`, "on" or
 * "off"): the chat's Voice mode and Visual novel switches. Off when nothing
 * is stored or storage is refused (private modes); the setting then lasts
 * for the page.
 */
import { useState } from "react";

export function useStoredFlag(key: string): [boolean, (on: boolean) => void] {
  const [on, setOn] = useState(() => {
    try {
      return localStorage.getItem(key) === "on";
    } catch {
      return false;
    }
  });
  const set = (next: boolean) => {
    setOn(next);
    try {
      localStorage.setItem(key, next ? "on" : "off");
    } catch {
      // Private modes may refuse storage: the setting lasts for this page.
    }
  };
  return [on, set];
}
