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
 * The lists were written from the labels' GoEmotions definitions, then
 * extended from the misses of `npm run bench:expressions`'s labelled set
 * only (scripts/bench-expressions.ts; its blind set is never looked at).
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
  admiration: ["admire", "impressive", "impressed", "amazing", "incredible", "brilliant", "magnificent", "wonderful", "beautiful", "gorgeous", "stunning", "talented", "skilled", "remarkable", "respect", "in awe", "awe", "marvel", "breathtaking", "well done", "masterful", "genius", "never seen anyone", "like magic", "how do you do that", "courage", "master", "brave"],
  amusement: ["laugh", "giggl", "chuckl", "snicker", "haha", "hehe", "lol", "funny", "hilarious", "amus", "grin", "smirk", "tease", "teasing", "joke", "snort", "😂", "🤣", "😆", "cackl", "bursts out laughing", "funniest", "lips twitch", "mirth", "pfft"],
  anger: ["angry", "anger", "furious", "fury", "rage", "enraged", "livid", "how dare", "snarl", "growl", "seeth", "shout", "yell", "slam", "clench", "glare", "damn you", "bastard", "hate you", "infuriat", "roar", "😠", "😡", "wrath", "fists", "bared", "cheated", "do you have any idea", "by the collar"],
  annoyance: ["annoy", "ugh", "irritat", "eye roll", "rolls her eyes", "rolls his eyes", "rolls their eyes", "rolling her eyes", "sigh", "tch", "tsk", "bother", "pest", "seriously?", "whatever", "huff", "grumbl", "scoff", "exasperat", "impatient", "🙄", "just great", "for crying out loud", "could you not", "stop poking", "flat look", "swats"],
  approval: ["agree", "good idea", "sounds good", "fair enough", "approve", "nod", "exactly", "right you are", "very well", "fine by me", "makes sense", "indeed", "correct", "yes,", "of course", "okay", "alright", "deal", "👍", "good.", "sensible", "as you said"],
  caring: ["are you okay", "are you alright", "take care", "careful", "worried about you", "let me help", "i'm here for you", "rest now", "gently", "tucks the", "tucks you", "comfort", "reassur", "soothing", "blanket", "look after", "hurt?", "bandage", "tends to", "protect you", "safe with me", "there, there", "pats", "soft voice", "softly", "don't push yourself", "wound", "eat something", "slow circles", "when you're ready", "talk to me"],
  confusion: ["confus", "what do you mean", "i don't understand", "huh?", "huh", "puzzled", "baffl", "bewilder", "tilts her head", "tilts his head", "tilts their head", "makes no sense", "wait, what", "what?", "perplex", "frown in thought", "unsure", "??", "🤔", "scratches", "which one", "i don't get it", "start over", "squints", "why is there", "hold on", "i'm lost"],
  curiosity: ["curious", "wonder", "interesting", "tell me more", "i'd love to know", "what is", "what's that", "how does", "why do", "fascinat", "intrigu", "lean in", "leans in", "leans closer", "peer", "inspect", "examin", "question", "hmm", "do you really", "where did you", "with interest", "explore", "studies", "where does"],
  desire: ["want you", "desire", "crave", "longing", "yearn", "hunger", "need you", "lick", "bites her lip", "bites his lip", "bit her lip", "lust", "wish i could", "covet", "tempt", "sultry", "purr", "seduct", "breathless", "heated", "breath hitches", "don't stop", "murmurs against", "lips", "gaze darkens", "hungry", "throat", "kiss me", "with want", "i want"],
  disappointment: ["disappoint", "let down", "i expected", "i thought you", "what a shame", "shame", "pity", "too bad", "deflat", "crestfallen", "shoulders sag", "sags", "dejected", "oh well", "not what i hoped", "unfortunately", "regrettabl", "failed", "smile fades", "never mind", "expected more", "not good enough", "i hoped", "guess i was wrong", "we lost", "aw,"],
  disapproval: ["disapprov", "no.", "not acceptable", "unacceptable", "you shouldn't", "should not", "wrong", "don't do that", "stop that", "frown", "shake her head", "shakes her head", "shakes his head", "shook", "tut", "that's not right", "i won't allow", "forbid", "refuse", "reckless", "irresponsible", "object", "don't approve", "not to be", "clicks her tongue", "clicks his tongue", "count me out", "lips thin", "not a good", "won't be part"],
  disgust: ["disgust", "gross", "revolting", "repuls", "vile", "nasty", "sicken", "ew", "eww", "yuck", "nause", "wrinkles her nose", "wrinkles his nose", "gag", "stench", "filth", "foul", "🤢", "🤮", "rotten", "slimy", "makes me sick", "contempt", "not putting that", "nose wrinkles"],
  embarrassment: ["blush", "embarrass", "flush", "cheeks redden", "red-faced", "face turns red", "ashamed", "awkward", "fluster", "stammer", "st-", "i-i", "umm", "um,", "uh,", "hides her face", "hides his face", "looks away", "averts", "sheepish", "😳", "mortif", "cheeks flush", "forget you ever saw", "mumbles", "laughs awkwardly", "back of his neck", "back of her neck"],
  excitement: ["excit", "can't wait", "thrill", "yay", "woo", "hooray", "let's go", "bounc", "eager", "amazing!", "so cool", "awesome", "pumped", "eyes light up", "eyes sparkle", "giddy", "claps", "jumps", "!!", "🎉", "exhilarat", "happening", "land ho", "come on, come on", "woohoo", "unable to stand still"],
  fear: ["afraid", "scared", "fear", "terrif", "frighten", "horror", "panic", "tremble", "shaking", "shiver", "flinch", "cower", "gasp", "scream", "run!", "help me", "no, no", "please don't", "backs away", "dread", "pale", "😨", "😱", "terror", "something's in", "don't want to die", "voice cracking", "goes pale", "found us"],
  gratitude: ["thank", "grateful", "appreciat", "thanks", "owe you", "you saved", "so kind of you", "bless you", "much obliged", "🙏", "indebted", "repay"],
  grief: ["grief", "griev", "mourn", "funeral", "passed away", "died", "dead", "gone forever", "lost her", "lost him", "sob", "weep", "wail", "heartbroken", "can't believe they're gone", "grave", "tomb", "bereav", "loss", "still smells like", "buried", "setting the table", "lost to the", "pyre", "goodbye", "she's gone"],
  joy: ["happy", "joy", "glad", "delight", "cheer", "smile", "smiling", "beam", "wonderful day", "lovely", "bright", "so good", "hums", "humming", "laughs happily", "😊", "😄", "😁", "☺", "elat", "bliss", "content", "warmly", "twirl", "radiant", "getting married", "glorious", "life is good", "sighs happily"],
  love: ["love", "adore", "darling", "sweetheart", "my dear", "honey", "beloved", "kiss", "embrace", "hug", "hugs", "hugging", "cuddl", "snuggl", "heart", "cherish", "affection", "❤", "💕", "😘", "🥰", "nuzzl", "hold you", "without a second thought", "forehead", "forever", "lace through", "for you", "missed you"],
  nervousness: ["nervous", "anxious", "anxiety", "fidget", "gulp", "swallow", "sweat", "jitter", "uneasy", "tense", "wring", "bites her nail", "shifts", "stutter", "i-i'm", "w-what", "trembl", "on edge", "worried", "what if", "😬", "😰", "too loudly", "sweaty", "glances at the door", "chews her nails", "chews his nails", "um", "deep breath", "jittery", "wavers", "in front of anyone"],
  optimism: ["hope", "optimis", "it'll be fine", "it will be fine", "we can do it", "we'll make it", "things will get better", "bright side", "believe in", "someday", "tomorrow", "promising", "chin up", "we'll figure", "looking forward", "faith", "confident we", "we'll find a way", "next year", "will be better", "new day", "looking up", "worst is behind", "going to be okay", "we've got this"],
  pride: ["proud", "pride", "accomplish", "i did it", "we did it", "achiev", "puffs out", "chest", "smug", "boast", "brag", "best", "victory", "triumph", "earned", "nailed it", "of course i", "hmph, naturally", "made it myself", "that's my boy", "not bad, huh", "mastered", "stands tall"],
  realization: ["realiz", "i see", "oh!", "so that's", "that's why", "it all makes sense", "of course!", "suddenly", "dawns", "dawned", "click", "understand now", "i get it", "figured out", "aha", "epiphan", "eyes widen in understanding", "wait a minute", "snaps her fingers", "snaps his fingers", "i get it now", "makes sense now", "ohhh"],
  relief: ["relief", "reliev", "phew", "thank goodness", "thank god", "finally", "safe now", "exhale", "lets out a breath", "breathes out", "sigh of relief", "you're okay", "you're safe", "it's over", "whew", "slumps", "at last", "relaxes", "melts away", "with relief", "in one piece"],
  remorse: ["sorry", "apolog", "forgive me", "my fault", "i shouldn't have", "regret", "guilt", "ashamed of myself", "i was wrong", "i didn't mean", "please forgive", "remorse", "atone", "my mistake", "i messed up", "should have been", "i failed you", "aton", "wasn't there", "selfish"],
  sadness: ["sad", "tear", "cry", "cries", "crying", "sorrow", "unhappy", "miserable", "lonely", "alone", "depress", "gloom", "melanchol", "sniffl", "downcast", "heavy heart", "hurts", "😢", "😭", "☹", "wistful", "quiet voice", "i miss", "used to be", "smile falters", "lip trembles", "moved away", "hugs her knees", "hugs his knees"],
  surprise: ["surprise", "whoa", "wow", "what!", "no way", "really?", "unexpected", "shock", "astonish", "stunned", "startl", "eyes widen", "eyes go wide", "jaw drops", "gasp", "blink", "oh my", "can't believe", "😮", "😲", "😯", "hand flying to", "what?!", "you're here", "yelps"],
  neutral: [],
};

/**
 * The Ekman group of each label, GoEmotions' own mapping
 * (google-research/goemotions, data/ekman_mapping.json; neutral its own):
 * a speaker without a label for an emotion shows the label of its group.
 */
export const EKMAN_GROUP: Record<EmotionLabel, EmotionLabel> = {
  anger: "anger", annoyance: "anger", disapproval: "anger",
  disgust: "disgust",
  fear: "fear", nervousness: "fear",
  joy: "joy", amusement: "joy", approval: "joy", excitement: "joy", gratitude: "joy", love: "joy", optimism: "joy",
  relief: "joy", pride: "joy", admiration: "joy", desire: "joy", caring: "joy",
  sadness: "sadness", disappointment: "sadness", embarrassment: "sadness", grief: "sadness", remorse: "sadness",
  surprise: "surprise", realization: "surprise", confusion: "surprise", curiosity: "surprise",
  neutral: "neutral",
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
