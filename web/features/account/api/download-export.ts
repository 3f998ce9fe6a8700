/**
 * `GET /api/profile/export` → the person's data as a zip, saved as the file
 * the server names (`fabled-<username>-<date>.zip`). The archive is read
 * whole before it is saved, so a refusal (429: one export a minute) can be
 * told in words instead of saving an error page as a file.
 */
import { useMutation } from "@tanstack/react-query";
import { throwIfResNotOk } from "../../../lib/api-client.ts";

/** The file name of a `Content-Disposition: attachment` answer, else `fallback`. */
export function attachmentName(disposition: string | null, fallback: string): string {
  const encoded = /filename\*=UTF-8''([^;]+)/i.exec(disposition ?? "")?.[1];
  if (encoded) {
    try {
      return decodeURIComponent(encoded);
    } catch {
      // fall through to the plain name
    }
  }
  return /filename="([^"]+)"/i.exec(disposition ?? "")?.[1] ?? fallback;
}

/** Downloads the export and hands it to the browser as a file. Throws the SPEC.md §8 error (`429: …` within a minute of the last one). */
export async function downloadExport(): Promise<string> {
  const res = await fetch("/api/profile/export", { credentials: "include" });
  await throwIfResNotOk(res);
  const name = attachmentName(res.headers.get("content-disposition"), "fabled-data.zip");
  const url = URL.createObjectURL(await res.blob());
  try {
    const link = document.createElement("a");
    link.href = url;
    link.download = name;
    document.body.append(link);
    link.click();
    link.remove();
  } finally {
    // The click has started the download; the URL is only needed until then.
    setTimeout(() => URL.revokeObjectURL(url), 10_000);
  }
  return name;
}

export function useDownloadExport() {
  return useMutation({ mutationFn: downloadExport });
}
