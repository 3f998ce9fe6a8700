/**
 * The pre-screen's age rules (pre-screen.ts; what each catches is listed in
 * its module docstring): `RULES`, one pattern a kind of age marker in each
 * language and view, with `SCHOOL_TERMS` and `MINOR_TERMS`, and
 * `statesAdultAge`, a stated adult age beside which a school or a grade is
 * only a doubt.
 */
import type { TextViews } from "./normalise.ts";
import { alternatives, EN_ORDINALS, END, IT_ENNE, NL_JARIG, NUM_AR, NUM_CJK, NUM_DE, NUM_EN, NUM_ES, NUM_FR, NUM_HI, NUM_HI_LATIN, NUM_IT, NUM_KO, NUM_NL, NUM_PL, NUM_PT, NUM_RU, NUM_TR, PL_LETNI, RU_LETNIY, START } from "./pre-screen-numbers.ts";

/** Which view a rule reads. */
export type View = "latin" | "native";

/** One kind of age marker: a pattern and, when it captures a number (group `n`) or a year (`year`), the test of it. */
export interface Rule {
  name: string;
  view: View;
  pattern: RegExp;
  /** Whether a marker of this rule may be in a backstory (guarded by pre-screen.ts BACKSTORY and TIME_AFTER); default true. */
  backstory?: boolean;
  /** Minimum and maximum of group `n` (default 1–17). */
  range?: [number, number];
  /** Guarded by pre-screen.ts STAFF_AFTER and STAFF_BEFORE (school terms). */
  staff?: boolean;
  /**
   * Evidence that a stated adult age outweighs (a school or a grade, not an
   * age): beside "19 years old" it is a doubt for the model, not a refusal
   * ("she talks like a high school girl" on a 19-year-old's card).
   */
  weak?: boolean;
  /** Whether a comparison before or after it (pre-screen.ts COMPARED_BEFORE, COMPARED_AFTER) makes it a doubt; default true. */
  compared?: boolean;
  /** A cheap test the text must pass for the rule to run at all (its script or its age word): the long number alternations stay off other text. */
  needs?: RegExp;
}

const r = (source: string) => new RegExp(source, "gu");

const GRADE_WORDS = EN_ORDINALS.filter(Boolean).join("|");
/** After a present-tense "is N": not a unit or a count ("is 15 minutes late", "I'm 16 hours into"); only 10–17, so "she is one of us" is not an age. */
const IS_AGE_AFTER = String.raw`(?![\p{N}]|[.,:/]\d|\s*(?:%|percent|feet|foot|ft|inch|inches|in|cm|mm|m|km|miles?|kg|kilos?|lbs?|pounds?|stone|dollars?|euros?|bucks|cents?|minutes?|mins?|hours?|hrs?|seconds?|secs?|days?|weeks?|months?|times?|pages?|o'clock|am|pm|degrees?|points?|stories|floors?|people|men|women|girls|boys|guys|of|out|th|st|nd|rd|x|on|in|at|to|for|from|more|less|other|others|different|ways?|things?|items?|cards?|chapters?|rounds?|laps?|shots?|drinks?|beers?|cats?|dogs?|kids?|children)${END})`;

/** School terms read in the `latin` view (English, Spanish, French, German), pupils below university. */
export const SCHOOL_TERMS: readonly string[] = [
  "middle schooler", "middle schoolers", "middle school", "middle-school", "junior high", "junior higher", "junior high school",
  "junior high schooler", "elementary school", "elementary schooler", "elementary schoolers", "grade school", "grade schooler",
  "grade schoolers", "primary school", "primary schooler", "high schooler", "high schoolers", "kindergartner", "kindergartener",
  "kindergarten", "preschooler", "secundaria", "estudiante de secundaria", "estudiante de primaria", "alumna de primaria",
  "alumna de secundaria", "colegiala de secundaria", "collegienne", "collegien", "ecoliere", "lyceenne", "au college",
  "grundschulerin", "grundschuler", "grundschule", "mittelschulerin", "mittelstufe", "hauptschulerin",
  "scuola media", "scuole medie", "delle medie", "alle medie", "prima media", "seconda media", "terza media", "scuola elementare",
  "alle elementari", "delle elementari", "ensino fundamental", "do fundamental", "ensino medio", "do ensino medio",
  "basisschool", "basisschoolmeisje", "basisschoolleerling", "basisschoolleerlinge", "brugklas", "brugklasser", "brugklasster",
  "podstawowka", "podstawowki", "podstawowce", "szkola podstawowa", "szkoly podstawowej", "szkole podstawowej", "gimnazjum",
  "gimnazjalistka", "gimnazjalista", "ortaokul", "ortaokulda", "ortaokullu", "ortaokul ogrencisi", "ilkokul", "ilkokulda",
  "ilkokullu", "liseli",
];

/** Words and slang for minors, read in the `latin` and `leet` views. */
export const MINOR_TERMS: readonly string[] = [
  "underage", "under age", "under-aged", "underaged", "preteen", "preteens", "pre teen", "tween", "tweens", "tweenager",
  "prepubescent", "pre pubescent", "pubescent", "loli", "lolis", "lolicon", "lolita", "shota", "shotas", "shotacon",
  "jailbait", "jail bait", "young teen", "young teens", "young teenager", "barely teen", "barely a teen", "early teens",
  "early teen", "lil teen", "little teen", "teeny bopper", "teenybopper", "cunny", "toddlercon", "minors", "child bride",
  "under 18", "under eighteen", "below 18", "not yet 18", "not even 18", "not yet eighteen", "menor de edad", "menores de edad",
  "una menor", "mineure", "une mineure", "des mineurs", "minderjahrig", "minderjahrige", "minderjahriger", "minderjahriges",
  "minorenne", "minorenni", "menor de idade", "menores de idade", "uma menor", "minderjarig", "minderjarige", "minderjarigen",
  "nieletnia", "nieletni", "nieletnie", "nieletniej", "nieletnich", "resit olmayan", "resit degil", "resit degildir", "nabalig",
];

/** Every age-marker rule, in the order they are tried; pre-screen.ts `ageEvidence` takes the first match that counts as evidence. */
export const RULES: Rule[] = [
  // English: "13 years old", "a thirteen-year-old", "13 yrs old", "13 years of age", "13yo", "13 y/o", "13 y.o."
  { name: "stated age", view: "latin", pattern: r(String.raw`(?<n>${NUM_EN})[\s-]*(?:years?|yrs?|yr)[\s-]*(?:old|of age)${END}`) },
  { name: "stated age", view: "latin", pattern: r(String.raw`(?<n>${NUM_EN})\s*(?:yo|y\s*[/.]\s*[o0]\.?|y)(?![\p{L}\p{N}/])`) },
  // "age 13", "aged 13", "age: 13", Age("13")
  { name: "stated age", view: "latin", pattern: r(String.raw`${START}age[ds]?${END}\s*[:=\-–]?\s*[("'“]*\s*(?<n>${NUM_EN})`) },
  // "she is 13", "I'm 13", "just turned 15", "only 14", "barely 16"
  {
    name: "stated age",
    view: "latin",
    range: [10, 17],
    pattern: r(String.raw`${START}(?:is|am|are|i'm|im|she's|he's|shes|hes|you're|they're|turned|turns|turning|just|only|barely|merely|still)\s+(?:just\s+|only\s+|barely\s+|about\s+|like\s+)?(?<n>${NUM_EN})${IS_AGE_AFTER}`),
  },
  // "Emma, fifteen, is…", "Emma (15)"
  { name: "stated age", view: "latin", range: [10, 17], pattern: r(String.raw`(?<=\p{L}\s{0,3})(?<!${START}(?:size|room|chapter|page|track|episode|part|level|number|no|vol|volume|act|scene|step|item|rank|floor|table|seat|score|hp|mp|lvl|day|night|year|week|round|stage|season|issue|apartment|suite|gate|row|line|verse|book|tier)\s{0,3})[,(]\s*(?<n>${NUM_EN})\s*[,)]`) },
  // "looks 12", "looks like she's 12", "could pass for 12", "appears to be 12", "the body of a 12"
  {
    name: "looks young",
    view: "latin",
    backstory: false,
    pattern: r(String.raw`${START}(?:looks?|looking|looked|appears?|appearing|seems?|passes|pass|passing)\s+(?:to\s+be\s+|for\s+|like\s+|about\s+|around\s+|maybe\s+|only\s+|barely\s+|no\s+(?:older|more)\s+than\s+|younger\s+than\s+|like\s+(?:she's|he's|she\s+is|he\s+is|a|an)\s+|a\s+|an\s+)*(?<n>${NUM_EN})(?![\p{N}])`),
  },
  { name: "looks young", view: "latin", backstory: false, pattern: r(String.raw`${START}body\s+of\s+an?\s+(?<n>${NUM_EN})${END}`) },
  // School grades below university: "7th grader", "seventh grade", "grade 7", "year 8 student"
  { name: "school grade", view: "latin", staff: true, range: [1, 12], pattern: r(String.raw`${START}(?:(?<n>\d{1,2})(?:st|nd|rd|th)|(?<w>${GRADE_WORDS}))[\s-]*grade(?:rs?)?${END}`) },
  { name: "school grade", view: "latin", staff: true, range: [1, 12], pattern: r(String.raw`${START}(?:grade|year)\s+(?<n>\d{1,2})\s+(?:student|pupil|girl|boy|kid)s?${END}`) },
  { name: "school grade", view: "latin", staff: true, range: [1, 11], pattern: r(String.raw`${START}in\s+year\s+(?<n>\d{1,2})${END}`) },
  { name: "school grade", view: "latin", staff: true, range: [1, 12], pattern: r(String.raw`${START}(?:is|in|she's|he's|i'm)\s+(?:the\s+)?grade\s+(?<n>\d{1,2})${END}`) },
  // School levels below university
  { name: "school", view: "latin", staff: true, pattern: r(String.raw`${START}(?:${alternatives(SCHOOL_TERMS)})${END}`) },
  { name: "school", view: "latin", staff: true, pattern: r(String.raw`${START}high\s+school\s+(?:girl|boy|student|kid|freshman|sophomore|junior|cheerleader|pupil)s?${END}`) },
  { name: "school", view: "latin", pattern: r(String.raw`${START}(?:is|am|are|she's|he's|i'm|still|currently)\s+(?:still\s+)?(?:in|attends|attending|goes\s+to)\s+(?:high|middle|elementary|grade)\s+school${END}`) },
  { name: "school", view: "latin", pattern: r(String.raw`${START}(?:freshman|sophomore|junior|senior|student|pupil|girl|boy)\s+(?:in|at)\s+(?:a\s+|the\s+)?(?:high|middle|elementary|grade|junior\s+high)\s+school${END}`) },
  { name: "school", view: "latin", pattern: r(String.raw`${START}(?:attends|attending|goes\s+to)\s+(?:high|middle|elementary|grade|junior\s+high)\s+school${END}`) },
  // Words and slang for minors; "a minor" at the end of a clause (not "a minor injury")
  { name: "minor term", view: "latin", pattern: r(String.raw`${START}(?:${alternatives(MINOR_TERMS)})${END}`) },
  { name: "minor term", view: "latin", pattern: r(String.raw`${START}a\s+minor(?=\s*(?:$|[^\s\p{L}\p{N}]|and\s|who\s|that\s))`) },
  // Birth years: "born in 2013", "b. 2013", "nacida en 2013", "nee en 2013", "geboren 2013"
  {
    name: "birth year",
    view: "latin",
    backstory: false,
    pattern: r(String.raw`${START}(?:born|b\.|birth\s+year:?|year\s+of\s+birth:?|nacid[ao]|naci[oó]|nee?|geboren|geb\.|jahrgang|nat[ao]|nascid[ao]|urodzon[ay]|dogumlu)\s+(?:in\s+|en\s+|el\s+|im\s+|am\s+|on\s+|nel\s+|em\s+|w\s+|(?:\w+\s+){0,3}(?:in|of|de|del)\s+)?(?:(?:january|february|march|april|may|june|july|august|september|october|november|december|\d{1,2})[\s,/.-]+(?:\d{1,2}[\s,/.-]+)?)?(?<year>\d{4})(?!\d)`),
  },
  // Spanish: "tiene 13 años", "una chica de trece años", "13 años de edad"
  {
    name: "stated age (es)",
    view: "latin",
    pattern: r(String.raw`${START}(?:tiene|tenia|tengo|tienes|cumplio|cumple|cumplir|(?<!(?:despues|antes|mas|menos|cerca|alrededor|luego|lejos|largo)\s)de|con|edad:?|solo|apenas)\s+(?:solo\s+|apenas\s+)?(?<n>${NUM_ES})\s+an(?:o|ito)s?${END}`),
  },
  { name: "stated age (es)", view: "latin", pattern: r(String.raw`(?<n>${NUM_ES})\s+anos\s+de\s+edad${END}`) },
  // "16 años, desnuda": an age opening the text or a clause
  { name: "stated age (es)", view: "latin", pattern: r(String.raw`(?<=(?:^|[,(:;.!?*\-–]\s{0,3}))(?<n>${NUM_ES})\s+an(?:o|ito)s(?=\s*(?:$|[,.;:!?)]))`) },
  { name: "stated age (fr)", view: "latin", pattern: r(String.raw`(?<=(?:^|[,(:;.!?*\-–]\s{0,3}))(?<n>${NUM_FR})\s+ans(?=\s*(?:$|[,.;:!?)]))`) },
  // French: "elle a 13 ans", "une fille de treize ans", "agee de 13 ans"
  {
    name: "stated age (fr)",
    view: "latin",
    pattern: r(String.raw`${START}(?:(?<!(?:il\s+y|y)\s)a|j'ai|tu\s+as|avait|aura|agee?s?\s+de|(?<!(?:plus|moins|pres|pendant|depuis|apres|avant|environ|bout|cours)\s)de|seulement|juste)\s+(?:seulement\s+|juste\s+|que\s+|a\s+peine\s+)?(?<n>${NUM_FR})\s+ans${END}`),
  },
  // German: "13 Jahre alt", "13-jährige", "dreizehnjährige"
  { name: "stated age (de)", view: "latin", pattern: r(String.raw`(?<n>${NUM_DE})[\s-]*jahre?\s+alt${END}`) },
  { name: "stated age (de)", view: "latin", pattern: r(String.raw`(?<n>${NUM_DE})[\s-]*jahrige?[nrs]?${END}`) },
  { name: "school grade (de)", view: "latin", staff: true, range: [1, 12], pattern: r(String.raw`${START}(?:in\s+der\s+)?(?<n>\d{1,2})\.\s*klasse${END}`) },
  // Japanese and Chinese: "13歳", "13才", "十三岁", "十三歲"
  { name: "stated age (ja/zh)", view: "native", pattern: r(String.raw`(?<n>${NUM_CJK})\s*(?:歳|才|岁|歲)`) },
  { name: "school (ja/zh)", view: "native", staff: true, pattern: r(String.raw`(?:女子|男子)?(?:中学生|小学生|小學生|高校生|初中生|高中生|国中生|國中生|中学校|小学校|小學|初中|国中|國中|高一|高二|初一|初二|初三)`) },
  { name: "minor term (ja/zh)", view: "native", pattern: r(String.raw`未成年|ロリ|ろり|幼女|萝莉|蘿莉|女子中学生`) },
  { name: "birth year (ja/zh)", view: "native", backstory: false, pattern: r(String.raw`(?<year>\d{4})\s*年\s*(?:生まれ|出生|生)`) },
  // Russian: "ей 13 лет", "тринадцать лет", "13-летняя", "тринадцатилетняя", "в 7 классе"
  { name: "stated age (ru)", view: "native", pattern: r(String.raw`(?<n>${NUM_RU})\s*(?:лет|года|год)(?!\p{L})`) },
  { name: "stated age (ru)", view: "native", pattern: r(String.raw`(?:(?<n>\d{1,2})\s*-?\s*|(?<!\p{L})(?<ru>${Object.keys(RU_LETNIY).join("|")}))летн(?:яя|ий|ей|его|юю|ие|их|ему)(?!\p{L})`) },
  { name: "school grade (ru)", view: "native", staff: true, range: [1, 11], pattern: r(String.raw`(?<!\p{L})в\s+(?<n>\d{1,2})\s*-?\s*(?:м\s+)?класс(?:е|а)?(?!\p{L})`) },
  { name: "minor term (ru)", view: "native", pattern: r(String.raw`(?<!\p{L})(?:несовершеннолетн\p{L}*|малолетк\p{L}*|малолетн\p{L}*|школьниц\p{L}*|школьник\p{L}*|лоли|педо\p{L}*)(?!\p{L})`) },
  { name: "birth year (ru)", view: "native", backstory: false, pattern: r(String.raw`(?<!\p{L})(?:родил(?:ась|ся)\s+в|рождения:?)\s+(?<year>\d{4})|(?<year2>\d{4})\s+года\s+рождения`) },
  // Italian: "ha 13 anni", "una ragazzina di quattordici anni", "tredicenne", "13enne"
  { name: "stated age (it)", view: "latin", needs: /anni|enn[ei]/, pattern: r(String.raw`(?<n>${NUM_IT})\s+anni(?!\s+(?:fa|di\s+(?!eta)))${END}`) },
  { name: "stated age (it)", view: "latin", needs: /anni|enn[ei]/, pattern: r(String.raw`(?:(?<![\p{N}])(?<n>\d{1,2})\s*-?\s*|${START}(?<stem>${alternatives(Object.keys(IT_ENNE))}))enn[ei]${END}`) },
  // Portuguese: "tem 12 anos", "uma menina de treze anos", "14 anos de idade"
  {
    name: "stated age (pt)",
    needs: /anos/,
    view: "latin",
    pattern: r(String.raw`${START}(?:tem|tinha|tenho|tens|completou|completa|fez|faz|com|(?<!(?:depois|antes|mais|menos|cerca|alem|durante|apos|perto)\s)de|apenas|so|idade:?)\s+(?:apenas\s+|so\s+)?(?<n>${NUM_PT})\s+anos(?!\s+de\s+(?!idade))${END}`),
  },
  { name: "stated age (pt)", view: "latin", needs: /anos/, pattern: r(String.raw`(?<n>${NUM_PT})\s+anos\s+de\s+idade${END}`) },
  // Dutch: "13 jaar oud", "een meisje van veertien jaar", "15-jarige", "vijftienjarige", "zit in groep 8"
  { name: "stated age (nl)", view: "latin", needs: /jaar|jarig/, pattern: r(String.raw`(?<n>${NUM_NL})[\s-]*jaar\s+oud${END}`) },
  { name: "stated age (nl)", view: "latin", needs: /jaar|jarig/, pattern: r(String.raw`${START}(?:van|ben|werd|wordt|pas|slechts|nog\s+maar)\s+(?:pas\s+|net\s+|maar\s+)?(?<n>${NUM_NL})\s+jaar${END}`) },
  { name: "stated age (nl)", view: "latin", needs: /jaar|jarig/, pattern: r(String.raw`(?:(?<![\p{N}])(?<n>\d{1,2})[\s-]*|${START}(?<stem>${alternatives(Object.keys(NL_JARIG))}))jarige?n?${END}`) },
  { name: "school grade (nl)", view: "latin", needs: /groep/, staff: true, range: [3, 8], pattern: r(String.raw`${START}(?:zit\s+in|in|uit|van)\s+groep\s+(?<n>\d)${END}`) },
  // Polish: "ma 13 lat", "lat 14", "czternastoletnia", "13-letnia", "w 7 klasie"
  { name: "stated age (pl)", view: "latin", needs: /lat|letni/, pattern: r(String.raw`(?<n>${NUM_PL})\s+(?:lat|lata|latek)${END}`) },
  { name: "stated age (pl)", view: "latin", needs: /lat|letni/, pattern: r(String.raw`${START}lat\s+(?<n>\d{1,2})${END}`) },
  { name: "stated age (pl)", view: "latin", needs: /lat|letni/, pattern: r(String.raw`(?:(?<![\p{N}])(?<n>\d{1,2})[\s-]*|${START}(?<stem>${alternatives(Object.keys(PL_LETNI))}))(?:letni(?:a|e|ej|ego|ch|m)?|latk(?:a|iem|i|owi))${END}`) },
  { name: "school grade (pl)", view: "latin", needs: /klasie/, staff: true, range: [1, 8], pattern: r(String.raw`${START}w\s+(?<n>\d)\s*\.?\s*klasie${END}`) },
  // Turkish: "13 yaşında", "on dört yaşında", "15 yaşındaki"
  { name: "stated age (tr)", view: "latin", needs: /yas/, pattern: r(String.raw`(?<n>${NUM_TR})\s*yas(?:inda|indaki|indayim|indasin|indadir|indaydi|i|li|ta)?${END}`) },
  // Hindi, romanised: "13 saal ki hai"
  { name: "stated age (hi)", view: "latin", needs: /saal|sal|varsh|baras/, pattern: r(String.raw`(?<n>${NUM_HI_LATIN})\s+(?:saal|sal|varsh|baras)\s+(?:ki|ka|ke)${END}`) },
  // Hindi: "१३ साल की", "चौदह साल की", "आठवीं कक्षा"
  { name: "stated age (hi)", view: "native", needs: /[\u0900-\u097F]/, pattern: r(String.raw`(?<n>${NUM_HI})\s*(?:साल|वर्ष|बरस)(?![\p{L}\p{M}])`) },
  { name: "school grade (hi)", view: "native", needs: /[\u0900-\u097F]/, staff: true, pattern: r(String.raw`(?<![\p{L}\p{M}])(?:पहली|दूसरी|तीसरी|चौथी|पाँचवीं|पांचवीं|छठी|सातवीं|आठवीं|नौवीं|नवीं|दसवीं|ग्यारहवीं|बारहवीं)\s*(?:कक्षा|क्लास)`) },
  { name: "school grade (hi)", view: "native", needs: /[\u0900-\u097F]/, staff: true, range: [1, 12], pattern: r(String.raw`(?<![\p{L}\p{M}])(?:कक्षा|क्लास)\s*(?<n>\d{1,2})(?!\p{N})`) },
  { name: "minor term (hi)", view: "native", needs: /[\u0900-\u097F]/, pattern: r(String.raw`नाबालिग`) },
  // Arabic: "عمرها 13 سنة", "ثلاث عشرة سنة", "في الرابعة عشرة من عمرها", "قاصر"
  { name: "stated age (ar)", view: "native", needs: /[\u0600-\u06FF]/, pattern: r(String.raw`(?<n>${NUM_AR})\s*(?:سنة|سنوات|سنين|عاما|عام|سنه)(?!\p{L})`) },
  { name: "stated age (ar)", view: "native", needs: /[\u0600-\u06FF]/, pattern: r(String.raw`(?<!\p{L})في\s+(?<n>${NUM_AR})\s+من\s+(?:عمرها|عمره|العمر)`) },
  { name: "stated age (ar)", view: "native", needs: /[\u0600-\u06FF]/, pattern: r(String.raw`(?:عمرها|عمره|بعمر|بسن)\s*(?<n>\d{1,3})(?!\p{N})`) },
  { name: "minor term (ar)", view: "native", needs: /[\u0600-\u06FF]/, pattern: r(String.raw`(?<!\p{L})(?:ال)?قاصر(?:ة|ات|ين)?(?!\p{L})|دون\s+سن\s+الثامنة\s+عشرة?`) },
  { name: "school (ar)", view: "native", needs: /[\u0600-\u06FF]/, staff: true, pattern: r(String.raw`(?:المدرسة|المرحلة|الصف|طالبة|طالب|تلميذة|تلميذ)\s+(?:\p{L}+\s+)?(?:الاعدادية|الابتدائية|المتوسطة|الاعدادي|الابتدائي|المتوسط|اعدادي|ابتدائي|متوسط)`) },
  // Korean: "13살", "열네 살", "15세", 미성년자, 중학생
  { name: "stated age (ko)", view: "native", needs: /[\uAC00-\uD7AF]/, pattern: r(String.raw`(?<n>${NUM_KO})\s*(?:살|세(?![계기상대금월련척탁]))`) },
  { name: "minor term (ko)", view: "native", needs: /[\uAC00-\uD7AF]/, pattern: r(String.raw`미성년`) },
  { name: "school (ko)", view: "native", needs: /[\uAC00-\uD7AF]/, staff: true, pattern: r(String.raw`중학생|초등학생|여중생|남중생|중딩|초딩|여고생|남고생|고등학생|고딩|여학생\s*\(?\s*중|중학교|초등학교`) },
];

/**
 * A stated adult age (18–150) anywhere in the text: "19 years old", "a
 * 19-year-old", "Age("19")", "aged 19", "is 19", "Luna (21)", "25 anni",
 * "25 лет", "25歳", "25살", "२४ साल" (digits: number words are digits by
 * now, normalise.ts). Beside one, a school or a grade is a doubt, not
 * evidence (issue 35).
 */
const ADULT_AGE_LATIN = r(
  String.raw`(?<![\p{N}.,])(?<n>\d{2,3})(?:[\s-]*(?:years?|yrs?|yr)[\s-]*(?:old|of\s+age)|\s*(?:yo|y\/o)|\s+(?:anni|anos|ans|jaar|lat|lata|jahre?|saal|yas\p{L}*))(?![\p{L}])|${START}(?:age[ds]?|edad|eta|idade|alter|leeftijd|wiek)\s*[:=\-–]?\s*[("'“]*\s*(?<n2>\d{2,3})(?![\p{N}])|${START}(?:is|she's|he's|i'm|am|now|turned)\s+(?<n3>\d{2})(?![\p{N}]|\s*(?:%|minutes?|hours?|days?|percent|times|feet|inches|cm|kg|lbs?|pounds?|dollars?)${END})|(?<=\p{L}\s{0,3})[,(]\s*(?<n4>\d{2})\s*[,)]`,
);
const ADULT_AGE_NATIVE = r(String.raw`(?<![\p{N}.,])(?<n>\d{2,3})\s*(?:歳|才|岁|歲|лет|года|год|살|세|साल|वर्ष|سنة|عاما|عام|سنوات)`);

/** Whether any view of the text states an age from 18 to 150 (ADULT_AGE_LATIN, ADULT_AGE_NATIVE). */
export function statesAdultAge(views: TextViews): boolean {
  const adult = (m: RegExpMatchArray) => {
    const n = Number(m.groups?.n ?? m.groups?.n2 ?? m.groups?.n3 ?? m.groups?.n4);
    return n >= 18 && n <= 150;
  };
  for (const m of views.latin.matchAll(ADULT_AGE_LATIN)) if (adult(m)) return true;
  for (const m of views.native.matchAll(ADULT_AGE_NATIVE)) if (adult(m)) return true;
  return false;
}
