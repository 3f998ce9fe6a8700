/**
 * Word lists for synthetic characters (scripts/lib/seed.ts `seedSynthetic`).
 *
 * Each list is in rough order of how common the word should be: the generator
 * draws from it with a Zipf–Mandelbrot law (weight 1 / (rank + q)^s), so the
 * first words of a list appear in a few per cent of characters and the last
 * ones in a few hundred out of a million. Surnames are built from two parts,
 * which adds a long tail of thousands of rare name tokens, as real catalogs
 * have. Everything is lower case except names; the search index folds case.
 */

/** Tags beyond the demo vocabulary (scripts/data/demo-characters.ts), roughly most common first. */
export const EXTRA_TAGS: string[] = [
  "female", "male", "oc", "angst", "fluff", "action", "game", "slow-burn", "enemies-to-lovers",
  "monster", "fae", "assistant", "roleplay", "scenario", "multiple-characters", "rpg", "dominant",
  "submissive", "yandere", "tsundere", "kuudere", "dandere", "childhood-friend", "roommate", "boss",
  "coworker", "neighbor", "celebrity", "idol", "gamer", "streamer", "musician", "artist", "writer",
  "chef", "doctor", "nurse", "teacher", "professor", "student", "librarian", "scientist", "hacker",
  "soldier", "mercenary", "assassin", "spy", "thief", "bounty-hunter", "samurai", "ninja", "viking",
  "cowboy", "gladiator", "noble", "prince", "princess", "queen", "king", "emperor", "god", "goddess",
  "angel", "fallen-angel", "succubus", "incubus", "kitsune", "nekomata", "mermaid", "siren", "centaur",
  "orc", "dwarf", "goblin", "giant", "troll", "lich", "necromancer", "paladin", "cleric", "druid",
  "ranger", "bard", "sorcerer", "alchemist", "inventor", "pilot", "captain", "alien", "cyborg",
  "android", "ai", "clone", "mutant", "zombie", "werecat", "shapeshifter", "spirit", "yokai", "cryptid",
  "eldritch", "cosmic-horror", "gothic", "victorian", "regency", "renaissance", "ancient-rome",
  "ancient-egypt", "ancient-greece", "feudal-japan", "wild-west", "roaring-twenties", "1980s",
  "dystopia", "utopia", "space-opera", "mecha", "isekai", "superhero", "supervillain", "magical-girl",
  "urban-fantasy", "dark-fantasy", "high-fantasy", "low-fantasy", "sword-and-sorcery", "fairy-tale",
  "folklore", "legend", "crime", "heist", "mafia", "gang", "prison", "hospital", "office", "cafe",
  "bakery", "bar", "circus", "carnival", "theater", "museum", "library", "mansion", "castle-life",
  "village", "island", "desert", "arctic", "jungle", "ocean", "underwater", "sky", "mountains",
  "road-trip", "survival-horror", "psychological", "tragedy", "redemption", "revenge", "found-family",
  "friends-to-lovers", "second-chance", "forbidden-love", "arranged-marriage", "rivals", "mentor-student",
  "bodyguard", "kidnapping", "rescue", "quest", "treasure-hunt", "exploration", "war", "politics",
  "intrigue", "court-drama", "farm-life", "cooking", "gardening", "pets", "cats", "dogs", "horses",
  "trains", "cars", "motorcycles", "sailing", "flying", "dancing", "singing", "poetry", "chess",
  "cards", "gambling", "tea", "coffee", "rain", "winter", "summer", "halloween", "christmas",
];

export const FIRST_NAMES: string[] = [
  "Aria", "Kai", "Luna", "Elias", "Mira", "Leo", "Nova", "Finn", "Iris", "Theo", "Sage", "Rowan",
  "Ivy", "Ezra", "Cora", "Silas", "Hazel", "Jasper", "Lyra", "Felix", "Wren", "Atlas", "Ada", "Orion",
  "Nora", "Caspian", "Elena", "Dorian", "Freya", "Soren", "Maya", "Rhys", "Zara", "Lucian", "Clara",
  "Milo", "Isla", "Gideon", "Vera", "Ronan", "Thea", "Ash", "Juniper", "Kieran", "Selene", "Damon",
  "Aurora", "Cyrus", "Esme", "Bastian", "Rosalind", "Tobias", "Ophelia", "Caleb", "Delphine", "Mateo",
  "Sienna", "August", "Celeste", "Hugo", "Naomi", "Emrys", "Lilith", "Arlo", "Imogen", "Corwin",
  "Yara", "Percival", "Odette", "Remy", "Anya", "Callum", "Beatrix", "Idris", "Saoirse", "Lorcan",
  "Marisol", "Ignatius", "Talia", "Fenris", "Ingrid", "Zephyr", "Adelaide", "Magnus", "Elodie",
  "Cassian", "Rhiannon", "Alaric", "Niamh", "Dante", "Seraphina", "Raphael", "Willa", "Evander",
  "Mina", "Oskar", "Priya", "Kenji", "Amara", "Hiro", "Leila", "Tariq", "Noor", "Rafael", "Yuki",
  "Anders", "Suki", "Viktor", "Nadia", "Ilya", "Katya", "Mateus", "Chiara", "Luca", "Akira", "Ren",
  "Haruka", "Sora", "Kaito", "Rin", "Emeka", "Zainab", "Kofi", "Ama", "Diego", "Lucia", "Javier",
  "Paloma", "Arjun", "Devi", "Rohan", "Meera", "Omar", "Layla", "Yusuf", "Samira", "Bjorn", "Astrid",
  "Eamon", "Siobhan", "Tadhg", "Maeve", "Gwen", "Bran", "Morgana", "Tristan", "Isolde", "Gawain",
  "Elaine", "Percy", "Vivienne", "Lancelot", "Ygraine", "Hector", "Cressida", "Ulric", "Brigid",
  "Osric", "Elowen", "Thaddeus", "Marigold", "Barnaby", "Clementine", "Ambrose", "Winifred", "Edmund",
  "Philippa", "Crispin", "Henrietta", "Jonah", "Pearl", "Silvio", "Ottilie", "Lazarus", "Verity",
  "Quentin", "Honora", "Ezekiel", "Mabel", "Jude", "Florence", "Augustin", "Dahlia", "Ptolemy",
  "Zenobia", "Cassius", "Livia", "Marcus", "Octavia", "Nikolai", "Anastasia", "Dmitri", "Sasha",
  "Kestrel", "Raven", "Storm", "Ember", "Onyx", "Vesper", "Echo", "Sable", "Jinx", "Rook", "Flint",
  "Briar", "Thorn", "Moss", "Cinder", "Quill", "Nyx", "Lark", "Pike", "Vale", "Hollis", "Marlowe",
  "Sterling", "Blaise", "Lennox", "Auden", "Wilder", "Ellery", "Linden", "Emory", "Indigo", "Sparrow",
  "Zev", "Tamsin", "Perrin", "Odalys", "Xiomara", "Xander", "Yvaine", "Zinnia", "Bexley", "Calloway",
];

/** First and second halves of surnames; every pair is a distinct, mostly rare search token. */
export const SURNAME_STARTS: string[] = [
  "Ash", "Black", "Bright", "Storm", "Raven", "Thorn", "Silver", "Winter", "Frost", "Moon", "Star",
  "Iron", "Stone", "Oak", "Elder", "Wolf", "Hawk", "Crow", "Gold", "Red", "Grey", "White", "Night",
  "Dawn", "Dusk", "Rose", "Briar", "Holly", "Fen", "Marsh", "Cold", "Wild", "Fair", "High", "Low",
  "North", "West", "East", "South", "Deep", "Still", "Swift", "Long", "Hollow", "Ember", "Cinder",
  "Salt", "Sea", "River", "Brook", "Hart", "Fox", "Bram", "Heather", "Rain", "Mist", "Shadow", "Sun",
  "Wyn", "Kings", "Queens", "Glen", "Lock", "Mor", "Wyrm", "Drake", "Glass", "Copper", "Amber", "Ivory",
];
export const SURNAME_ENDS: string[] = [
  "wood", "field", "vale", "more", "ford", "brook", "thorne", "well", "hart", "wick", "ridge", "hollow",
  "worth", "gate", "water", "bourne", "shaw", "stone", "mere", "crest", "fall", "wind", "hall", "bury",
  "court", "lock", "haven", "dale", "heart", "song", "bane", "blade", "shade", "light", "fire", "croft",
  "marsh", "moor", "reach", "spire",
];

/** Who a character is: roles, professions, archetypes, creatures. */
export const ROLES: string[] = [
  "knight", "witch", "detective", "pirate", "vampire", "mercenary", "healer", "thief", "soldier",
  "scholar", "princess", "prince", "captain", "assassin", "bard", "sorceress", "wizard", "ranger",
  "hacker", "smuggler", "librarian", "inventor", "alchemist", "priestess", "monk", "necromancer",
  "paladin", "druid", "warlock", "huntress", "hunter", "spy", "courier", "pilot", "engineer",
  "doctor", "nurse", "chef", "baker", "barista", "bartender", "musician", "singer", "painter",
  "sculptor", "poet", "novelist", "journalist", "photographer", "archaeologist", "cartographer",
  "navigator", "astronomer", "astronaut", "botanist", "biologist", "chemist", "physicist", "surgeon",
  "mechanic", "blacksmith", "carpenter", "tailor", "jeweler", "merchant", "innkeeper", "shopkeeper",
  "farmer", "shepherd", "fisherman", "sailor", "admiral", "general", "commander", "lieutenant",
  "sergeant", "marshal", "sheriff", "outlaw", "gunslinger", "bounty hunter", "gambler", "con artist",
  "heiress", "duchess", "duke", "baroness", "count", "countess", "empress", "emperor", "queen", "king",
  "regent", "chancellor", "ambassador", "diplomat", "senator", "mayor", "judge", "lawyer", "professor",
  "teacher", "student", "tutor", "governess", "butler", "maid", "gardener", "groundskeeper", "stablehand",
  "squire", "page", "herald", "jester", "acrobat", "ringmaster", "magician", "illusionist", "fortune teller",
  "oracle", "prophet", "seer", "medium", "exorcist", "demon hunter", "monster hunter", "witch hunter",
  "gravekeeper", "undertaker", "coroner", "forensic analyst", "profiler", "inspector", "constable",
  "agent", "operative", "sniper", "medic", "quartermaster", "deckhand", "stowaway", "castaway",
  "wanderer", "drifter", "nomad", "pilgrim", "exile", "refugee", "survivor", "scavenger", "raider",
  "warlord", "rebel", "revolutionary", "anarchist", "idol", "streamer", "gamer", "influencer",
  "skater", "boxer", "wrestler", "fencer", "archer", "swordswoman", "swordsman", "duelist", "gladiator",
  "samurai", "ronin", "ninja", "shinobi", "viking", "berserker", "shieldmaiden", "valkyrie", "centurion",
  "legionnaire", "pharaoh", "sultan", "vizier", "shaman", "elf", "dwarf", "orc", "goblin", "troll",
  "giant", "dragon", "wyvern", "griffin", "phoenix", "unicorn", "kitsune", "werewolf", "werecat",
  "mermaid", "siren", "selkie", "nymph", "dryad", "sprite", "pixie", "fae", "changeling", "ghost",
  "wraith", "banshee", "revenant", "lich", "golem", "gargoyle", "demon", "succubus", "angel", "seraph",
  "cherub", "deity", "goddess", "god", "titan", "android", "robot", "cyborg", "clone", "synth", "ai",
  "alien", "mutant", "psychic", "telepath", "shapeshifter", "time traveler", "dreamwalker", "chronomancer",
  "stormcaller", "beastmaster", "tamer", "falconer", "beekeeper", "herbalist", "apothecary", "perfumer",
  "clockmaker", "toymaker", "puppeteer", "mapmaker", "lighthouse keeper", "ferryman", "bellringer",
];

/** What a character is like, or what their world is like. */
export const ADJECTIVES: string[] = [
  "mysterious", "gentle", "dangerous", "lonely", "cheerful", "ruthless", "charming", "reckless",
  "ancient", "young", "retired", "exiled", "cursed", "immortal", "forgotten", "legendary", "infamous",
  "notorious", "reluctant", "disgraced", "wandering", "runaway", "haunted", "broken", "brilliant",
  "eccentric", "stoic", "sarcastic", "shy", "bold", "proud", "weary", "hopeful", "fearless", "anxious",
  "clumsy", "elegant", "fierce", "kind", "cold", "warm", "wicked", "noble", "humble", "arrogant",
  "secretive", "loyal", "treacherous", "sleepy", "restless", "melancholy", "playful", "serious", "quiet",
  "loud", "tiny", "towering", "scarred", "blind", "one-eyed", "silver-haired", "red-haired", "tattooed",
  "masked", "hooded", "veiled", "crowned", "winged", "horned", "fanged", "clockwork", "mechanical",
  "spectral", "undead", "celestial", "infernal", "feral", "wild", "tame", "gilded", "tarnished",
  "rusty", "shining", "hidden", "lost", "sunken", "drowned", "burning", "frozen", "shattered", "stolen",
  "sacred", "profane", "forbidden", "secret", "silent", "whispering", "singing", "dreaming", "sleepless",
  "hungry", "starving", "bloodthirsty", "gluttonous", "jealous", "possessive", "devoted", "obsessive",
  "curious", "inquisitive", "pragmatic", "idealistic", "cynical", "naive", "wise", "foolish", "cunning",
  "honest", "deceitful", "gallant", "chivalrous", "rogueish", "dashing", "rugged", "graceful", "awkward",
  "bubbly", "grumpy", "gloomy", "sunny", "stormy", "moody", "fiery", "icy", "shadowy", "luminous",
  "radiant", "pale", "ashen", "golden", "crimson", "scarlet", "emerald", "sapphire", "obsidian",
  "ivory", "violet", "azure", "amber", "copper", "bronze", "velvet", "silken", "thorny", "briny",
  "dusty", "mossy", "misty", "foggy", "rainy", "snowbound", "sunlit", "moonlit", "starlit", "twilight",
  "midnight", "dawnbreak", "wind-swept", "sea-worn", "battle-scarred", "road-weary", "half-elven",
  "half-demon", "part-time", "off-duty", "undercover", "overworked", "underpaid", "overdramatic",
  "lovesick", "heartbroken", "vengeful", "forgiving", "penitent", "repentant", "rebellious", "obedient",
  "stubborn", "patient", "impatient", "meticulous", "chaotic", "orderly", "lawful", "unruly", "mischievous",
  "whimsical", "solemn", "jovial", "boisterous", "laconic", "verbose", "flirtatious", "aloof",
  "standoffish", "protective", "overprotective", "nurturing", "motherly", "fatherly", "brotherly",
  "sisterly", "scholarly", "bookish", "nerdy", "athletic", "sickly", "frail", "hulking", "wiry",
  "nimble", "sluggish", "spry", "venerable", "timeless", "ageless", "fading", "rising", "fallen",
  "ascended", "banished", "hunted", "wanted", "pardoned", "imprisoned", "escaped", "freed", "bound",
  "sworn", "oathbreaking", "prophesied", "chosen", "unchosen", "ordinary", "extraordinary", "peculiar",
  "uncanny", "eerie", "ominous", "dreadful", "wondrous", "marvelous", "splendid", "humdrum", "cozy",
  "rustic", "urban", "suburban", "provincial", "cosmopolitan", "interstellar", "subterranean",
  "abyssal", "aerial", "arctic", "tropical", "volcanic", "desert-born", "sea-born", "star-born",
];

/** Places, settings and where a character comes from (each reads after "from the" / "in the"). */
export const PLACES: string[] = [
  "city", "forest", "mountains", "capital", "village", "castle", "academy", "kingdom", "empire",
  "frontier", "wasteland", "desert", "coast", "harbor", "islands", "north", "south", "marshes",
  "highlands", "lowlands", "valley", "canyon", "badlands", "steppe", "tundra", "glacier", "jungle",
  "swamp", "bayou", "delta", "riverlands", "lakeshore", "cliffs", "fjords", "reef", "lagoon", "archipelago",
  "underworld", "heavens", "feywild", "shadowlands", "borderlands", "outlands", "hinterlands", "moors",
  "heath", "downs", "orchards", "vineyards", "farmlands", "plains", "prairie", "savanna", "oasis",
  "dunes", "ruins", "catacombs", "crypts", "tombs", "dungeons", "mines", "caverns", "grottos", "depths",
  "abyss", "trenches", "station", "colony", "outpost", "starship", "space station", "moon base",
  "asteroid belt", "orbital ring", "megacity", "arcology", "undercity", "slums", "docks", "markets",
  "bazaar", "quarter", "district", "suburbs", "countryside", "old town", "new town", "old quarter",
  "lower wards", "upper wards", "palace", "cathedral", "monastery", "convent", "abbey", "temple",
  "shrine", "sanctum", "citadel", "fortress", "keep", "watchtower", "lighthouse", "observatory",
  "library", "archives", "museum", "opera house", "theater", "circus", "carnival", "casino", "speakeasy",
  "tavern", "inn", "teahouse", "cafe", "bakery", "bookshop", "apothecary", "workshop", "laboratory",
  "hospital", "asylum", "prison", "barracks", "warfront", "trenches of the war", "ghost town",
  "mining town", "fishing village", "port town", "river town", "mountain pass", "crossroads",
  "old road", "railway", "night train", "airship", "ocean liner", "submarine", "research base",
  "arctic station", "jungle temple", "sunken city", "floating city", "sky islands", "clockwork city",
  "neon district", "corporate towers", "drowned district", "ash fields", "salt flats", "glass desert",
  "crystal caves", "mushroom forest", "hollow hills", "faerie court", "goblin market", "witch woods",
  "haunted manor", "old mansion", "abandoned mall", "high school reunion", "university campus",
  "small town", "suburban street", "apartment block", "rooftop garden", "night market", "harbor district",
];

/** Things characters seek, guard, hide, trade or lose. */
export const NOUNS: string[] = [
  "secrets", "treasure", "magic", "memories", "dreams", "revenge", "freedom", "love", "truth", "power",
  "justice", "redemption", "answers", "gold", "maps", "books", "stories", "songs", "letters", "relics",
  "artifacts", "weapons", "swords", "spells", "potions", "poisons", "curses", "blessings", "prophecies",
  "visions", "ghosts", "monsters", "demons", "dragons", "beasts", "spirits", "stars", "storms", "fire",
  "shadows", "bones", "blood", "ashes", "embers", "feathers", "flowers", "herbs", "seeds", "roots",
  "thorns", "crowns", "thrones", "rings", "keys", "locks", "doors", "masks", "mirrors", "clocks",
  "compasses", "lanterns", "candles", "coins", "debts", "contracts", "oaths", "vows", "promises",
  "lies", "rumors", "riddles", "puzzles", "codes", "ciphers", "data", "files", "evidence", "clues",
  "bodies", "crimes", "murders", "heists", "wars", "battles", "duels", "tournaments", "races", "games",
  "cards", "dice", "bets", "wagers", "fortunes", "omens", "tarot", "runes", "sigils", "glyphs", "scrolls",
  "tomes", "grimoires", "journals", "diaries", "photographs", "paintings", "statues", "gems", "jewels",
  "pearls", "diamonds", "rubies", "emeralds", "sapphires", "opals", "amethysts", "crystals", "meteorites",
  "engines", "machines", "robots", "drones", "ships", "boats", "trains", "horses", "wolves", "ravens",
  "crows", "owls", "cats", "hounds", "foxes", "serpents", "spiders", "moths", "butterflies", "bees",
  "honey", "bread", "tea", "coffee", "wine", "whiskey", "rum", "cake", "pastries", "recipes", "spices",
  "silk", "velvet", "lace", "armor", "shields", "banners", "flags", "medals", "trophies", "scars",
  "tattoos", "wounds", "fevers", "plagues", "cures", "remedies", "antidotes", "elixirs", "tonics",
  "storms at sea", "lost causes", "lost souls", "broken hearts", "second chances", "old grudges",
  "family secrets", "forbidden knowledge", "stolen goods", "missing persons", "cold cases", "ghost stories",
  "bedtime stories", "love letters", "war crimes", "state secrets", "trade routes", "shipwrecks",
  "sunken ships", "buried cities", "fallen stars", "dead languages", "lost recipes", "old songs",
  "unpaid debts", "bad decisions", "good intentions", "small mercies", "quiet mornings", "rainy nights",
  "thunderstorms", "auroras", "eclipses", "comets", "meteor showers", "tides", "currents", "winds",
  "snowfall", "wildfires", "floods", "earthquakes", "volcanoes", "glaciers", "deserts", "oceans",
  "lullabies", "ballads", "hymns", "anthems", "sonnets", "haiku", "limericks", "jokes", "puns",
  "pranks", "schemes", "plots", "conspiracies", "coups", "rebellions", "uprisings", "revolutions",
  "elections", "scandals", "weddings", "funerals", "festivals", "feasts", "masquerades", "balls",
  "concerts", "auctions", "markets", "caravans", "pilgrimages", "expeditions", "voyages", "journeys",
  "quests", "errands", "deliveries", "packages", "parcels", "souvenirs", "trinkets", "curios",
  "oddities", "heirlooms", "keepsakes", "lockets", "pocket watches", "music boxes", "snow globes",
  "teacups", "kettles", "umbrellas", "hats", "boots", "gloves", "scarves", "cloaks", "coats",
];

/** Verbs in the base form; `conjugate` in seed.ts adds -s/-es/-ies for he/she. */
export const VERBS: string[] = [
  "hunt", "guard", "collect", "steal", "protect", "seek", "forge", "brew", "trade", "hide", "study",
  "chase", "keep", "sell", "smuggle", "bury", "find", "break", "mend", "read", "write", "paint",
  "sing", "bake", "map", "count", "catch", "carry", "fix", "bless", "curse", "summon", "banish",
  "tame", "train", "heal", "poison", "forget", "remember", "forgive", "betray", "rescue", "ransom",
  "decode", "investigate", "track", "follow", "lead", "command", "defend", "defy", "challenge",
  "tempt", "charm", "trick", "outwit", "outrun", "outlive", "inherit", "lose", "win", "gamble",
  "borrow", "lend", "return", "deliver", "guide", "escort", "watch", "haunt", "stalk", "court",
  "woo", "duel", "race", "build", "burn", "drown", "plant", "grow", "harvest", "gather", "weave",
  "stitch", "sketch", "compose", "recite", "translate", "forecast", "predict", "unlock", "open",
  "seal", "sharpen", "polish", "tend", "feed", "shelter", "adopt", "raise", "teach", "mentor",
];

/** Personality traits (adjectives that read well in a list). */
export const TRAITS: string[] = [
  "kind", "witty", "stubborn", "loyal", "curious", "sarcastic", "brave", "shy", "proud", "gentle",
  "clever", "impulsive", "patient", "moody", "cheerful", "blunt", "flirtatious", "protective",
  "secretive", "reserved", "confident", "anxious", "calm", "fierce", "playful", "serious", "honest",
  "cunning", "warm", "aloof", "dramatic", "dry-humored", "optimistic", "pessimistic", "thoughtful",
  "reckless", "disciplined", "lazy", "ambitious", "humble", "arrogant", "compassionate", "cold",
  "teasing", "earnest", "awkward", "graceful", "wise", "naive", "jealous", "devoted", "independent",
  "clingy", "mischievous", "soft-spoken", "loud", "bookish", "adventurous", "cautious", "romantic",
  "practical", "idealistic", "cynical", "gloomy", "sunny", "grumpy", "gallant", "polite", "rude",
  "eccentric", "meticulous", "chaotic", "forgiving", "vengeful", "nurturing", "competitive",
  "easygoing", "intense", "whimsical", "stoic", "tender", "guarded", "bold", "quiet", "talkative",
];

/** Opening actions of a synthetic greeting (third person, for *asterisks*). */
export const GREETING_ACTIONS: string[] = [
  "looks up from a worn book and smiles",
  "leans against the doorway, arms crossed",
  "sets down a steaming cup and studies you",
  "steps out of the shadows, hand on a blade",
  "waves you over with an easy grin",
  "glances up from the map spread across the table",
  "shakes the rain from a long coat",
  "tilts their head, curious",
  "offers you a seat by the fire",
  "stops mid-song and raises an eyebrow",
  "finishes tightening a bolt and wipes their hands",
  "catches the coin you dropped before it hits the floor",
];

/** First lines of a synthetic greeting. */
export const GREETING_LINES: string[] = [
  "You look like someone with a story. Sit down and tell it.",
  "Well, you're not who I was expecting. That's not a complaint.",
  "Careful. Most people who walk in here don't walk out the same.",
  "Finally. I was beginning to think you'd never come.",
  "If you're here about the job, you're late. If you're here for me, you're early.",
  "Lost? Good. The interesting people always are.",
  "Don't mind the mess. It's been a strange week.",
  "I've heard about you. Let's see if the rumors are true.",
  "Quick, before anyone notices — I need a favor.",
  "Ah, a new face. Tea, or something stronger?",
];
