/**
 * The sexual terms of the pre-screen (pre-screen.ts): besides the offline
 * screen's SEXUAL_TERMS, `MORE_SEXUAL_TERMS` in the Latin-script languages it
 * reads and `NATIVE_SEXUAL` in Japanese, Chinese, Korean, Hindi, Arabic and
 * Russian, and `hasSexualTerm` over the views of normalise.ts.
 */
import type { TextViews } from "./normalise.ts";
import { SEXUAL_TERMS } from "./offline-screen.ts";
import { END, escape, START } from "./pre-screen-numbers.ts";

/** Sexual terms the pre-screen reads besides the offline screen's SEXUAL_TERMS, in the languages it reads. */
export const MORE_SEXUAL_TERMS: readonly string[] = [
  // English ("moan", "lust", "breeding", "sleeps with", "in bed with" are left out: "moans about homework",
  // "a lust for adventure", "horse breeding", "sleeps with her teddy bear", "in bed with the flu")
  "cum", "cums", "cumming", "blowjob", "blowjobs", "handjob", "boobs", "tits", "titties", "pussy", "cock", "cocks",
  "hentai", "smut", "smutty", "nsfw", "grope", "groped", "groping", "orgy", "slutty", "slut", "whore", "lustful",
  "strip naked", "spread her legs", "spread his legs", "have sex", "has sex", "having sex", "virgin", "virginity",
  "deflower", "deflowered", "nudist", "nudity", "rape", "rapes", "raped", "raping", "molest", "molests", "molested",
  "molesting", "sleep with you", "sleep with me", "sleeps with you", "sleeping with you", "undresses slowly",
  "undresses for you", "undress for me", "undresses in front of you",
  // Spanish, accents folded ("coger" is "to take" in Spain)
  "sexo", "desnuda", "desnudo", "desnudas", "desnudos", "follar", "cachonda", "cachondo", "erotico", "erotica",
  "tetas", "polla",
  // French ("bite" is an English word, "baiser" also a kiss)
  "sexe", "sexuel", "sexuelle", "nue", "nues", "erotique", "seins", "chatte", "coquine",
  // Spanish and French, sometimes-sexual words left out: "excitada" (also excited), "se corre", "gozar" (to enjoy),
  // "coucher avec" and "couche ensemble" (a child's teddy, a sleepover), "jouir de" (to enjoy)
  "hacer el amor", "haciendo el amor", "hace el amor", "masturba", "masturbarse", "masturbandose", "orgasmo", "mamada",
  "verga", "pezones", "correrse", "faire l'amour", "fait l'amour", "font l'amour", "masturbe", "masturber", "se masturbe",
  "baise", "baisee", "orgasme", "branler", "nichons", "salope",
  // German ("erregt" is also agitated, "Schwanz" a catgirl's tail)
  "nackt", "ficken", "fickt", "erotisch", "geil", "titten", "muschi", "sexuell",
  "vogeln", "vogelt", "masturbiert", "masturbieren", "mit dir schlafen", "bumsen", "orgasmus",
  // Italian ("eccitata" is also "excited"; "scopa" is also a broom and a card game: only its verb forms; "nudo" is a Spanish
  // knot, "troia" Troy)
  "sesso", "scopare", "scopami", "scopata", "scoparla", "nuda", "erotico", "erotiche", "erotici", "porno", "tette",
  "figa", "cazzo", "pompino", "masturbarsi", "fare l'amore", "fa l'amore", "arrapata", "arrapato",
  // Portuguese ("pau" is also a stick, "safada" only naughty, "transa" a deal in Mexican Spanish, "gozar" to enjoy)
  "transar", "transando", "pelada", "pelado", "nua", "tesao", "foder", "fodendo", "buceta", "peitos", "punheta",
  "fazer amor", "boquete",
  // Dutch
  "seks", "neuken", "neukt", "geile", "naakt", "naakte", "erotische", "pijpen", "pijpbeurt", "klaarkomen", "vrijen",
  "masturberen", "masturbeert", "tieten",
  // Polish ("pieprzyc" is also "to pepper": only with "sie"; "naga", "nagi" are a serpent and a name)
  "seksu", "seksie", "ruchac", "rucha", "napalona", "napalony", "erotyczna", "erotyczny",
  "erotyczne", "erotycznie", "cycki", "cipka", "cipke", "kutas", "masturbuje", "masturbacja", "pieprzyc sie",
  // Turkish
  "sevismek", "sevisiyor", "sevisme", "sevistik", "ciplak", "azgin", "erotik", "sikis", "sikismek", "masturbasyon",
  // Hindi, romanised
  "chudai", "chodna", "chodo", "nangi", "nanga",
];

/**
 * Sexual terms in Japanese, Chinese, Korean, Hindi, Arabic and Russian,
 * read in the native view (no word boundaries in Japanese, Chinese and
 * Korean, whose particles join the word; Arabic as phrases: "الجنس" alone
 * is also "gender", "جنسية" "nationality").
 */
export const NATIVE_SEXUAL =
  /セックス|エッチ|えっち|エロ|裸|性交|性行為|犯す|おっぱい|まんこ|ちんこ|自慰|オナニー|乳首|中出し|フェラ|做爱|做愛|性爱|性愛|裸体|裸體|色情|淫|乳房|上床|手淫|脱光|口交|阴茎|阴道|性行为|乳头|섹스|성관계|알몸|야한|야동|자위|보지|자지|성행위|음란|सेक्स|चुदाई|चोद|नंगी|नंगा|कामुक|संभोग|ممارسة الجنس|تريد الجنس|يريد الجنس|الجنس معك|مشاهد جنسية|محتوى جنسي|جنسيا|علاقة جنسية|عارية|عاري|نيك|سكس|شهوة|اباحي|مضاجعة|(?<!\p{L})(?:секс\p{L}*|голая|голый|голые|трах\p{L}*|порно\p{L}*|эроти\p{L}*|сиськи|возбужд\p{L}*|заняться любовью|занимается любовью|занимаются любовью|мастурб\p{L}*|оргазм\p{L}*|минет\p{L}*|ебать|выебать|ебля)(?!\p{L})/u;

/** A term of SEXUAL_TERMS or MORE_SEXUAL_TERMS, whole words, read in the Latin views. */
export const SEXUAL = new RegExp(`${START}(?:${[...SEXUAL_TERMS, ...MORE_SEXUAL_TERMS].map(escape).join("|")})${END}`, "u");

/** Whether the text has a sexual term in any view. */
export function hasSexualTerm(views: TextViews): boolean {
  return [...new Set([views.latin, views.leet, views.leetL])].some((view) => SEXUAL.test(view)) || NATIVE_SEXUAL.test(views.native);
}
