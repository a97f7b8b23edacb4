/**
 * The names people give the things tools act on when they do not use the tool's word: kinds of
 * document (a proposal, a contract), kinds of picture, a repository's trunk and its changes under
 * review, CI's colours, a person's role, a phone line, a priority's short code, kinds of one-time
 * code, a table's space on disk, a storage place.
 * Part of the default vocabulary of client-side tool search (see tool-vocabulary.ts, which puts the
 * parts together in order: a key of a later part stands in place of the same key of an earlier one).
 * @module
 */

/** Words or phrases (keys) and the tool words each stands for. */
type Vocabulary = Readonly<Record<string, readonly string[]>>;

/** The names people give the things tools act on, kind of thing by kind of thing. */
export function everydayObjects(): Readonly<Record<string, readonly string[]>> {
  return {
    ...objectsDocuments(),
    ...objectsPictures(),
    ...objectsCode(),
    ...objectsPeopleAndRoles(),
    ...objectsPhoneLinesAndCodes(),
    ...objectsPriorities(),
    ...objectsSpace(),
    ...objectsStoragePlaces(),
    ...objectsRowsAndFields(),
    ...objectsContestedPayments(),
    ...objectsInTheAskersWords(),
    ...objectsNounsOfAnAction(),
    ...objectsMobilesAndSecondFactors(),
  };
}

/**
 * A phone called by what it is (a mobile, a cell number), and a second factor called by its kind
 * (two-factor, two-step, multi-factor): a phone number, a verification code.
 */
function objectsMobilesAndSecondFactors(): Vocabulary {
  return {
    mobile: ["phone"],
    "mobile number": ["phone number"],
    "cell number": ["phone number"],
    "two factor": ["verification code", "verify"],
    "two step": ["verification code", "verify"],
    "multi factor": ["verification code", "verify"],
  };
}

/**
 * An action named by its noun, which the stemmer leaves apart from its verb (`confirmation` is no
 * `confirm`, `deletion` no `delete`): "did the phone confirmation pass", "the deletion of the file".
 */
function objectsNounsOfAnAction(): Vocabulary {
  return {
    confirmation: ["verification", "verify", "confirm"],
    cancellation: ["cancel"],
    deletion: ["delete"],
    removal: ["remove", "delete"],
    creation: ["create"],
    registration: ["register", "create"],
    submission: ["submit"],
    approval: ["approve"],
    renewal: ["renew", "subscription"],
    assignment: ["assign"],
    expiration: ["expire"],
    expiry: ["expire"],
    reservation: ["reserve", "book"],
    publication: ["publish"],
    installation: ["install"],
  };
}

/** Kinds of document: what a file in a drive is called by what it holds. */
function objectsDocuments(): Vocabulary {
  return {
    proposal: ["document"],
    contract: ["document"],
    agreement: ["document"],
    nda: ["document"],
    memo: ["document"],
    spec: ["document"],
    specification: ["document"],
    resume: ["document"],
    cv: ["document"],
    whitepaper: ["document"],
    handbook: ["document"],
    "one pager": ["document"],
    writeup: ["document"],
    spreadsheet: ["document"],
  };
}

/** Kinds of picture and media: an image or a file to upload. */
function objectsPictures(): Vocabulary {
  return {
    diagram: ["image", "file"],
    mockup: ["image", "file"],
    drawing: ["image", "file"],
    sketch: ["image", "file"],
    logo: ["image", "file"],
    png: ["image", "file"],
    jpg: ["image", "file"],
    jpeg: ["image", "file"],
    gif: ["image", "file"],
    svg: ["image", "file"],
    video: ["file"],
    clip: ["file"],
  };
}

/** Code hosting: the trunk's names, changes under review, CI's colours, code's parts. */
function objectsCode(): Vocabulary {
  return {
    main: ["branch"],
    master: ["branch"],
    trunk: ["branch"],
    "review request": ["pull request"],
    "change request": ["pull request"],
    changeset: ["pull request", "commit"],
    patch: ["pull request", "commit"],
    green: ["conclusion", "ci", "checks"],
    red: ["conclusion", "ci", "checks"],
    method: ["code"],
    snippet: ["code"],
    "source code": ["code"],
    "call sites": ["code"],
    occurrences: ["code", "search"],
  };
}

/** People's roles, and who does the work. */
function objectsPeopleAndRoles(): Vocabulary {
  return {
    "job title": ["title", "profile"],
    role: ["title", "position", "profile"],
    assignee: ["assign"],
    cardholder: ["customer"],
  };
}

/** Phone lines, and kinds of one-time code. */
function objectsPhoneLinesAndCodes(): Vocabulary {
  return {
    "support line": ["phone number"],
    "help line": ["phone number"],
    helpline: ["phone number"],
    "sales line": ["phone number"],
    "main line": ["phone number"],
    "toll free": ["phone number"],
    tollfree: ["phone number"],
    freephone: ["phone number"],
    "login code": ["verification code"],
    "sign in code": ["verification code"],
    "confirmation code": ["verification code"],
    "security code": ["verification code"],
    "access code": ["verification code"],
  };
}

/** A priority's or a severity's short code. */
function objectsPriorities(): Vocabulary {
  return {
    p0: ["priority"],
    p1: ["priority"],
    p2: ["priority"],
    p3: ["priority"],
    p4: ["priority"],
    sev1: ["incident", "priority"],
    sev2: ["incident", "priority"],
    sev3: ["incident", "priority"],
  };
}

/** Room on disk: what a table or a bucket takes up. */
function objectsSpace(): Vocabulary {
  return {
    space: ["size", "disk"],
    biggest: ["size"],
    largest: ["size"],
    "take up": ["size"],
  };
}

/** Where files are kept in the cloud, by the names people give it: a store is a bucket. */
function objectsStoragePlaces(): Vocabulary {
  return {
    storage: ["bucket"],
    "object storage": ["bucket"],
    "object store": ["bucket"],
    "blob storage": ["bucket"],
    "storage container": ["bucket"],
  };
}

/**
 * A table's or a database's rows and their fields: what is set on a row is its properties ("set
 * Status to Done on the launch row", "the owner column of this entry").
 */
function objectsRowsAndFields(): Vocabulary {
  return {
    row: ["record"],
    entry: ["row", "record"],
    cell: ["property", "row"],
    // one row pointed at is one to change: its properties (not "rows where…", which are queried)
    "this row": ["properties", "database row"],
    "that row": ["properties", "database row"],
    "this entry": ["properties", "database row"],
    "that entry": ["properties", "database row"],
  };
}

/**
 * A payment its payer contests is no longer a charge but a dispute — a chargeback: both names of it
 * together, so that "which payments are customers contesting" asks for disputes before charges.
 */
function objectsContestedPayments(): Vocabulary {
  const disputed = ["chargebacks disputes", "dispute"];
  return { contest: disputed, dispute: disputed, "charge back": disputed, challenge: disputed };
}

/**
 * The asker's own names for things a tool's text names otherwise: changes proposed to code, reports
 * of a problem, a document's past, a query's plan, a code typed to sign in, a buyer not won yet.
 */
function objectsInTheAskersWords(): Vocabulary {
  return {
    "code change": ["pull request"],
    "proposed change": ["pull request"],
    "problem report": ["issue", "bug"],
    "bug report": ["issue", "bug"],
    printable: ["pdf", "export"],
    "edit history": ["revision history", "revisions"],
    "change history": ["revision history", "revisions"],
    pin: ["verification code"],
    passcode: ["verification code"],
    planner: ["execution plan", "explain"],
    "potential customer": ["lead"],
    "potential buyer": ["lead"],
    "potential client": ["lead"],
  };
}
