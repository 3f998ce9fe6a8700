/**
 * zod input schemas with the rules and messages of SPEC.md §5, shared by the
 * web forms and the Worker so both say exactly the same thing. One file an
 * area under schema/inputs/ (catalog queries, characters, the profile and
 * its settings, personas, comments and reports, lorebooks); this module
 * gathers them for the many importers, and for
 * worker/test/screening-coverage.test.ts, which walks every schema exported
 * here.
 */
export { CATALOG_MAX_OFFSET, CATALOG_PAGE_SIZE, MAX_BIO_LENGTH, MAX_COMMENT_LENGTH, MAX_HIDDEN_TAGS, MAX_SEARCH_LENGTH, MAX_TAGS } from "./constants.ts";
export * from "./inputs/catalog.ts";
export * from "./inputs/characters.ts";
export * from "./inputs/community.ts";
export * from "./inputs/lorebooks.ts";
export * from "./inputs/personas.ts";
export * from "./inputs/profile.ts";
