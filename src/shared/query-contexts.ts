/**
 * Words whose meaning is set by the company they keep in a query: a `folder` among mail words is a
 * mail label, not a drive's folder ("move these emails into the Receipts folder"), and mail tagged is
 * labelled; a `line` among phone words is a phone number ("buy a toll-free line"); `lookups` that
 * should be faster want an index; a query blocked or stuck in a database is held by a lock; saying
 * something in a doc or a page writes it there, it posts no message; clearing what is unread marks
 * it read; a table kept to track things is a database; a reply on an issue or a page comments on it;
 * a call booked for so many minutes is a meeting; an incident opened or raised is triggered. Read by
 * query-slots.ts, which gives such a word's slot the meaning in place of its own word and synonyms.
 * @module
 */
import { stem } from "./search-words";

/** Stemmed alternatives, as the synonym table holds them. */
type Alternatives = readonly (readonly string[])[];

/** A word's meaning beside other words. */
interface ContextMeaning {
  /** The words (stemmed) that take the meaning. */
  words: ReadonlySet<string>;
  /** Words (stemmed) of which one, elsewhere in the query, sets it. */
  context: ReadonlySet<string>;
  /** What the word then means. */
  meaning: Alternatives;
  /**
   * Only as the query's command, its first slot ("what the page says" writes nothing), when true;
   * never as its command, when false ("share the deck with the external auditors" shares).
   */
  command?: boolean;
  /** Words (stemmed) of which one, anywhere in what is asked, keeps the word's own meaning. */
  unless?: ReadonlySet<string>;
}

const stems = (text: string): ReadonlySet<string> => new Set(text.split(" ").map(stem));
/** Alternatives of stemmed words, each phrase one alternative (`phone number` → [`phon`, `number`]). */
const phrasesOf = (...phrases: string[]): Alternatives =>
  phrases.map((phrase) => phrase.split(" ").map(stem));

/** Words (stemmed) of mail: among them a folder or a tag is a label. */
const MAIL_WORDS = stems(
  "email emails mail mails inbox inboxes mailbox message messages newsletters gmail outlook",
);

/** Word → its meaning in a context, in order: the first whose context the query has counts. */
const CONTEXT_MEANINGS: readonly ContextMeaning[] = [
  // mail is kept in labels: a mail folder, an inbox's folder
  {
    words: stems("folder folders subfolder"),
    context: MAIL_WORDS,
    meaning: phrasesOf("label"),
  },
  // mail tagged or categorised is labelled; a ticket, an issue or a case is tagged, whatever mail it is about
  {
    words: stems("tag tags tagged categorize categorise"),
    context: MAIL_WORDS,
    meaning: phrasesOf("label"),
    unless: stems("ticket tickets issue issues case cases"),
  },
  // a whole or entire thread, conversation or email is one read in full
  {
    words: stems("whole entire"),
    context: stems(
      "thread threads conversation conversations email emails mail message messages chat exchange",
    ),
    meaning: phrasesOf("full"),
  },
  // a folder a thing is in, when the command finds, reads, shares or removes it there, says where it
  // is: the thing is a file, the folder no place to put it (putting, moving, saving, uploading keep it)
  {
    words: stems("folder folders"),
    context: stems("find search look locate open read show share delete remove trash rename export"),
    meaning: phrasesOf("file", "document"),
    unless: stems("put move moving upload save drop copy place stick add create make new"),
  },
  // a line one calls, buys, texts or gets for an office is a phone number; a line of a doc is not
  {
    words: stems("line lines"),
    context: stems(
      "phone call calls caller number numbers toll mobile landline carrier dial ring voicemail sms buy purchase rent provision dedicated hotline area office another extra grab",
    ),
    meaning: phrasesOf("phone number"),
    unless: stems("doc document page file csv spreadsheet sheet table row paragraph log"),
  },
  // lookups, searches and filters made faster want an index
  {
    words: stems("lookup lookups searching searches filtering filters sorting query queries"),
    context: stems("speed speeding faster quicker quick optimize optimise accelerate"),
    meaning: phrasesOf("index"),
  },
  // queries blocked, stuck or waiting in a database are held by its locks
  {
    words: stems("block blocking blocked stuck waiting hung hanging"),
    context: stems("query queries database db table tables transaction transactions postgres sql"),
    meaning: phrasesOf("lock"),
  },
  // a table kept to track or list things (vendors, applicants, a reading list) is a database of
  // records, not a SQL table to inspect
  {
    words: stems("table tables"),
    context: stems("track tracking tracker keep list organise organize"),
    meaning: phrasesOf("database"),
    unless: stems(
      "sql postgres postgresql mysql column columns index indexes schema rows vacuum lock locks size sizes disk",
    ),
  },
  // a call booked or scheduled, or one of so many minutes, is a meeting on a calendar (being on
  // call is a rota, calling off cancels: `on` and `off` are asked only in those compounds)
  {
    words: stems("call calls"),
    context: stems(
      "book booked schedule scheduled reschedule invite invites minute minutes hour hours agenda calendar",
    ),
    meaning: phrasesOf("meeting", "event"),
    unless: stems("on off phone number dial play voicemail sms recording record log logged"),
  },
  // a reply on an issue, a pull request or a page is a comment on it; a ticket's or a mail's is a reply
  {
    words: stems("reply replies respond answer"),
    context: stems("issue issues pr prs pull page pages doc docs document spec wiki"),
    meaning: phrasesOf("comment", "reply"),
    unless: stems("ticket tickets email emails mail requester invite invitation"),
  },
  // an incident opened, raised, declared or started is triggered: tools trigger incidents, they
  // create none
  {
    words: stems("open create raise declare start file log"),
    context: stems("incident incidents"),
    meaning: phrasesOf("trigger incident", "trigger"),
    command: true,
    unless: stems("list show which any recent note timeline comment"),
  },
  // alerts stopped or paused for a while are muted
  {
    words: stems("stop halt pause hold"),
    context: stems("alert alerts alerting alarm alarms notifications firing"),
    meaning: phrasesOf("mute", "silence", "snooze"),
  },
  // what is said or mentioned in a doc or a page is written into it
  {
    words: stems("say mention write"),
    context: stems("doc docs document page wiki notes spec"),
    meaning: phrasesOf("append"),
    command: true,
    unless: stems("new create article"),
  },
  // clearing what is unread (its count, its badge, its state) marks it read
  {
    words: stems("clear clean reset remove zero dismiss"),
    context: stems("unread"),
    meaning: phrasesOf("mark read"),
  },
  // a post that is not the command is a thing posted, among words that find, show or place it: a message
  {
    words: stems("post posts"),
    context: stems(
      "latest recent new last old find search show read see any channel channels slack chat thread feed today yesterday week about",
    ),
    meaning: phrasesOf("message"),
    command: false,
  },
  // whether a thing is shared outside a team is who has access to it
  {
    words: stems("shared"),
    context: stems("outside external externally"),
    meaning: phrasesOf("access", "permission"),
    command: false,
  },
  // a separate or shared schedule, an agenda one has access to, is a calendar
  {
    words: stems("schedule schedules agenda agendas"),
    context: stems("separate shared another second extra access subscribe subscribed"),
    meaning: phrasesOf("calendar"),
  },
];

/** What a context slot needs: its own words (a pair written with a space, `say in`), its synonyms, whether a subject. */
export interface ContextSlot {
  words: readonly string[];
  synonyms: readonly (readonly string[])[];
  weight?: number;
  subject?: boolean;
}

/**
 * What the slot whose own words are `words` means in a query of `queryStems` (its stemmed words),
 * when one of its words takes a meaning from another word of the query — one that takes it only as
 * a command, or never as one, when the slot is or is not the query's `command` — otherwise undefined.
 */
export function contextMeaning(
  words: readonly string[],
  queryStems: readonly string[],
  command = false,
): Alternatives | undefined {
  const own = words.flatMap((word) => word.split(" "));
  for (const rule of CONTEXT_MEANINGS) {
    if ((rule.command !== undefined && rule.command !== command) || !own.some((word) => rule.words.has(word)))
      continue;
    if (rule.unless && queryStems.some((word) => rule.unless!.has(word))) continue;
    if (queryStems.some((word) => rule.context.has(word) && !own.includes(word))) return rule.meaning;
  }
  return undefined;
}

/**
 * Gives each slot of `slots` of one word (a phrase such as `support line` keeps its own meaning)
 * whose word takes a meaning from the words of what is asked — the slots that are no subject: "say
 * in #general that the doc is ready" still posts a message — and the words of the values taken out
 * of the query (`shaped`: an address's `email` puts "from jo@acme.com into the Clients folder" among
 * mail), its meaning ({@link contextMeaning}), at a word's own weight, in place of its words and synonyms.
 */
export function applyContexts<Slot extends ContextSlot>(slots: Slot[], shaped: readonly string[] = []): void {
  const asked = slots
    .filter((slot) => !slot.subject)
    .flatMap((slot) => slot.words.flatMap((word) => word.split(" ")))
    .concat(shaped);
  slots.forEach((slot, index) => {
    if (slot.words.length !== 1 || slot.subject) return;
    const meaning = contextMeaning(slot.words, asked, index === 0);
    if (meaning) slots[index] = { ...slot, words: [], synonyms: meaning, weight: 1 };
  });
}
