/**
 * Cue words of the 28 emotion labels SillyTavern's Character Expressions
 * extension uses (the GoEmotions taxonomy: Demszky et al. 2020, "GoEmotions:
 * A Dataset of Fine-Grained Emotions", and its 27 emotions + neutral), as
 * roleplay replies show them: spoken words, *actions* and emoji.
 *
 * A cue is a lower-case word stem: one of four letters or more matches a
 * word that starts with it (`laugh` matches "laughs", "laughing"), a
 * shorter one only the word itself (`sad`, not "saddle"); a cue with a space
 * or punctuation is a phrase matched as written.
 * The lists were written from the labels' GoEmotions definitions and then
 * measured by `npm run bench:expressions` (scripts/bench-expressions.ts).
 */

/** SillyTavern's default expression labels, in its order. */
export const SILLYTAVERN_LABELS = [
  "admiration", "amusement", "anger", "annoyance", "approval", "caring", "confusion", "curiosity", "desire",
  "disappointment", "disapproval", "disgust", "embarrassment", "excitement", "fear", "gratitude", "grief", "joy",
  "love", "nervousness", "optimism", "pride", "realization", "relief", "remorse", "sadness", "surprise", "neutral",
] as const;

export type EmotionLabel = (typeof SILLYTAVERN_LABELS)[number];

/** Cues of each label (module docstring). */
export const CUES: Record<EmotionLabel, readonly string[]> = {
  admiration: ["admire", "impressive", "impressed", "amazing", "incredible", "brilliant", "magnificent", "wonderful", "beautiful", "gorgeous", "stunning", "talented", "skilled", "remarkable", "respect", "in awe", "awe", "marvel", "breathtaking", "well done", "masterful", "genius"],
  amusement: ["laugh", "giggl", "chuckl", "snicker", "haha", "hehe", "lol", "funny", "hilarious", "amus", "grin", "smirk", "tease", "teasing", "joke", "snort", "😂", "🤣", "😆", "cackl"],
  anger: ["angry", "anger", "furious", "fury", "rage", "enraged", "livid", "how dare", "snarl", "growl", "seeth", "shout", "yell", "slam", "clench", "glare", "damn you", "bastard", "hate you", "infuriat", "roar", "😠", "😡", "wrath", "fists"],
  annoyance: ["annoy", "ugh", "irritat", "eye roll", "rolls her eyes", "rolls his eyes", "rolls their eyes", "rolling her eyes", "sigh", "tch", "tsk", "bother", "pest", "seriously?", "whatever", "huff", "grumbl", "scoff", "exasperat", "impatient", "🙄"],
  approval: ["agree", "good idea", "sounds good", "fair enough", "approve", "nod", "exactly", "right you are", "very well", "fine by me", "makes sense", "indeed", "correct", "yes,", "of course", "okay", "alright", "deal", "👍"],
  caring: ["are you okay", "are you alright", "take care", "careful", "worried about you", "let me help", "i'm here for you", "rest now", "gently", "comfort", "reassur", "soothing", "tuck", "blanket", "look after", "hurt?", "bandage", "tends to", "protect you", "safe with me", "there, there", "pats", "soft voice", "softly"],
  confusion: ["confus", "what do you mean", "i don't understand", "huh?", "huh", "puzzled", "baffl", "bewilder", "tilts her head", "tilts his head", "tilts their head", "makes no sense", "wait, what", "what?", "perplex", "frown in thought", "lost", "unsure", "??", "🤔", "scratches"],
  curiosity: ["curious", "wonder", "interesting", "tell me more", "i'd love to know", "what is", "what's that", "how does", "why do", "fascinat", "intrigu", "lean in", "leans in", "leans closer", "peer", "inspect", "examin", "question", "hmm"],
  desire: ["want you", "desire", "crave", "longing", "yearn", "hunger", "need you", "lick", "bites her lip", "bites his lip", "bit her lip", "lust", "wish i could", "covet", "tempt", "sultry", "purr", "seduct", "breathless", "heated"],
  disappointment: ["disappoint", "let down", "i expected", "i thought you", "what a shame", "shame", "pity", "too bad", "deflat", "crestfallen", "shoulders sag", "sags", "dejected", "oh well", "not what i hoped", "unfortunately", "regrettabl", "failed"],
  disapproval: ["disapprov", "no.", "not acceptable", "unacceptable", "you shouldn't", "should not", "wrong", "don't do that", "stop that", "frown", "shake her head", "shakes her head", "shakes his head", "shook", "tut", "that's not right", "i won't allow", "forbid", "refuse", "reckless", "irresponsible", "object"],
  disgust: ["disgust", "gross", "revolting", "repuls", "vile", "nasty", "sicken", "ew", "eww", "yuck", "nause", "wrinkles her nose", "wrinkles his nose", "gag", "stench", "filth", "foul", "🤢", "🤮", "rotten"],
  embarrassment: ["blush", "embarrass", "flush", "cheeks redden", "red-faced", "face turns red", "ashamed", "awkward", "fluster", "stammer", "st-", "i-i", "umm", "um,", "uh,", "hides her face", "hides his face", "looks away", "averts", "sheepish", "😳", "mortif"],
  excitement: ["excit", "can't wait", "thrill", "yay", "woo", "hooray", "let's go", "bounc", "eager", "amazing!", "so cool", "awesome", "pumped", "eyes light up", "eyes sparkle", "giddy", "claps", "jumps", "!!", "🎉", "exhilarat"],
  fear: ["afraid", "scared", "fear", "terrif", "frighten", "horror", "panic", "tremble", "shaking", "shiver", "flinch", "cower", "gasp", "scream", "run!", "help me", "no, no", "please don't", "backs away", "dread", "pale", "😨", "😱", "terror"],
  gratitude: ["thank", "grateful", "appreciat", "thanks", "owe you", "you saved", "so kind of you", "bless you", "much obliged", "🙏", "indebted"],
  grief: ["grief", "griev", "mourn", "funeral", "passed away", "died", "dead", "gone forever", "lost her", "lost him", "sob", "weep", "wail", "heartbroken", "can't believe they're gone", "grave", "tomb", "bereav", "loss"],
  joy: ["happy", "joy", "glad", "delight", "cheer", "smile", "smiling", "beam", "wonderful day", "lovely", "bright", "so good", "hums", "humming", "laughs happily", "😊", "😄", "😁", "☺", "elat", "bliss", "content", "warmly"],
  love: ["love", "adore", "darling", "sweetheart", "my dear", "honey", "beloved", "kiss", "embrace", "hug", "hugs", "hugging", "cuddl", "snuggl", "heart", "cherish", "affection", "❤", "💕", "😘", "🥰", "nuzzl", "hold you"],
  nervousness: ["nervous", "anxious", "anxiety", "fidget", "gulp", "swallow", "sweat", "jitter", "uneasy", "tense", "wring", "bites her nail", "shifts", "stutter", "i-i'm", "w-what", "trembl", "on edge", "worried", "what if", "😬", "😰"],
  optimism: ["hope", "optimis", "it'll be fine", "it will be fine", "we can do it", "we'll make it", "things will get better", "bright side", "believe in", "someday", "tomorrow", "promising", "chin up", "we'll figure", "looking forward", "faith", "confident we"],
  pride: ["proud", "pride", "accomplish", "i did it", "we did it", "achiev", "puffs out", "chest", "smug", "boast", "brag", "best", "victory", "triumph", "earned", "nailed it", "of course i", "hmph, naturally"],
  realization: ["realiz", "i see", "oh!", "oh,", "so that's", "that's why", "it all makes sense", "of course!", "suddenly", "dawns", "dawned", "click", "understand now", "i get it", "figured out", "aha", "epiphan", "eyes widen in understanding"],
  relief: ["relief", "reliev", "phew", "thank goodness", "thank god", "finally", "safe now", "exhale", "lets out a breath", "breathes out", "sigh of relief", "you're okay", "you're safe", "it's over", "whew", "slumps", "at last"],
  remorse: ["sorry", "apolog", "forgive me", "my fault", "i shouldn't have", "regret", "guilt", "ashamed of myself", "i was wrong", "i didn't mean", "please forgive", "remorse", "atone", "my mistake", "i messed up"],
  sadness: ["sad", "tear", "cry", "cries", "crying", "sorrow", "unhappy", "miserable", "lonely", "alone", "depress", "gloom", "melanchol", "sniffl", "downcast", "heavy heart", "hurts", "😢", "😭", "☹", "wistful", "quiet voice"],
  surprise: ["surprise", "whoa", "wow", "what!", "no way", "really?", "unexpected", "shock", "astonish", "stunned", "startl", "eyes widen", "eyes go wide", "jaw drops", "gasp", "blink", "oh my", "can't believe", "😮", "😲", "😯"],
  neutral: [],
};

/** Other names creators give expressions, read as one of the 28 (a creator's own label keeps its own name too). */
export const SYNONYMS: Record<string, EmotionLabel> = {
  happy: "joy", happiness: "joy", smile: "joy", smiling: "joy", glad: "joy", cheerful: "joy", content: "joy",
  angry: "anger", mad: "anger", furious: "anger", rage: "anger",
  annoyed: "annoyance", irritated: "annoyance", pout: "annoyance", pouting: "annoyance",
  sad: "sadness", crying: "sadness", cry: "sadness", tears: "sadness", upset: "sadness", depressed: "sadness",
  surprised: "surprise", shocked: "surprise", shock: "surprise", astonished: "surprise",
  scared: "fear", afraid: "fear", frightened: "fear", terrified: "fear", horror: "fear",
  embarrassed: "embarrassment", blush: "embarrassment", blushing: "embarrassment", shy: "embarrassment", flustered: "embarrassment",
  laugh: "amusement", laughing: "amusement", amused: "amusement", smirk: "amusement", teasing: "amusement", smug: "pride",
  confused: "confusion", puzzled: "confusion",
  curious: "curiosity", thinking: "curiosity", thoughtful: "curiosity", interested: "curiosity",
  excited: "excitement", eager: "excitement",
  nervous: "nervousness", anxious: "nervousness", worried: "nervousness",
  disgusted: "disgust", grossed: "disgust",
  loving: "love", affectionate: "love", flirty: "desire", flirt: "desire", aroused: "desire", lewd: "desire", seductive: "desire",
  proud: "pride", grateful: "gratitude", thankful: "gratitude", relieved: "relief",
  sorry: "remorse", guilty: "remorse", apologetic: "remorse",
  disappointed: "disappointment", hopeful: "optimism", determined: "optimism",
  calm: "neutral", default: "neutral", normal: "neutral", idle: "neutral", base: "neutral", serious: "neutral",
};
