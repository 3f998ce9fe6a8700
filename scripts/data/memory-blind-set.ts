/**
 * The blind set of `npm run bench:memory` (scripts/bench-memory.ts): facts a
 * player states early in a long roleplay and the questions they ask about
 * them hundreds of messages later. Written and committed BEFORE the offline
 * embedder (ai/embeddings/offline.ts) was written or tuned, and never edited
 * after: recall@4 on it is the honest figure (docs/decisions/0031). The
 * questions paraphrase; a few share only one content word with the fact.
 */
export interface PlantedFact {
  /** What is said early (a person's or a character's line). */
  fact: string;
  /** What is asked much later; the fact's message should be among the 4 recalled. */
  question: string;
}

export const BLIND_FACTS: readonly PlantedFact[] = [
  { fact: "My sister Ilse keeps bees on the roof of the old mill.", question: "Where does Ilse keep her bees again?" },
  { fact: "The smuggler's boat is called the Grey Heron and it leaks at the stern.", question: "What was the name of the smuggler's boat?" },
  { fact: "I buried the silver key under the third oak past the chapel.", question: "Which tree did I bury the silver key under?" },
  { fact: "Captain Varro is allergic to honey; one spoonful nearly killed him.", question: "What is Captain Varro allergic to?" },
  { fact: "The password for the night gate is 'lanterns in the rain'.", question: "Remind me, what's the password at the night gate?" },
  { fact: "Mira lost two fingers of her left hand in the siege of Tolbeck.", question: "How did Mira lose her fingers?" },
  { fact: "We agreed to meet the informant at the fish market on Thursday at dawn.", question: "When are we meeting the informant?" },
  { fact: "My horse is a black mare named Pepper who hates thunder.", question: "What's my mare called?" },
  { fact: "The cult worships a drowned god they call the Quiet Tide.", question: "What do the cultists call their god?" },
  { fact: "Aldric owes the thieves' guild four hundred crowns.", question: "How much money does Aldric owe the guild?" },
  { fact: "The antidote needs moonpetal, ash salt and the tears of a widow.", question: "What ingredients does the antidote need?" },
  { fact: "I was born in Karsk, a mining town in the northern hills.", question: "Do you remember which town I was born in?" },
  { fact: "The librarian hid the forbidden atlas behind the astronomy shelves.", question: "Where is the forbidden atlas hidden?" },
  { fact: "Selene's favourite song is an old sailor's ballad called The Lantern Keeper.", question: "What song does Selene love most?" },
  { fact: "The duke's seal is a wolf holding a broken sword.", question: "What does the duke's seal look like?" },
  { fact: "My father disappeared at sea when I was twelve years old.", question: "How old was I when my father vanished?" },
  { fact: "The dragon sleeps beneath the glacier and wakes only in leap years.", question: "When does the dragon wake up?" },
  { fact: "Tomas is secretly writing letters to the queen's spymaster.", question: "Who has Tomas been writing letters to?" },
  { fact: "The bridge at Harrow Ford collapsed during the spring flood.", question: "What happened to the bridge at Harrow Ford?" },
  { fact: "I promised Nell I would bring her a blue ribbon from the capital.", question: "What did I promise to bring Nell?" },
  { fact: "The ship's cook, Barnaby, only has one eye and a parrot named Admiral.", question: "What's the name of Barnaby's parrot?" },
  { fact: "Our camp is hidden in a cave behind the waterfall at Eskdale.", question: "Where is our camp hidden?" },
  { fact: "The healer charges three eggs and a song for every visit.", question: "What does the healer charge for a visit?" },
  { fact: "Lord Pell's daughter is engaged to a merchant from Vasso.", question: "Who is Lord Pell's daughter going to marry?" },
  { fact: "The map tattoo on my back shows the way to the sunken temple.", question: "What does the tattoo on my back show?" },
  { fact: "Ravel can't read; he memorises every contract instead.", question: "Can Ravel read?" },
  { fact: "The inn's cellar floods every time the tide is high.", question: "Why is the inn's cellar always wet?" },
  { fact: "My grandmother's ring has a green stone that glows near magic.", question: "What happens to grandmother's ring near magic?" },
  { fact: "The witch said the curse breaks if I sleep one night in a church.", question: "How do I break the witch's curse?" },
  { fact: "Kestrel's real name is Annika Holm and she's wanted in three cities.", question: "What is Kestrel's real name?" },
];
