/**
 * The tables of the PostgreSQL store and every statement it runs on them, for one schema and table
 * prefix (identifiers quoted once, here).
 * @module
 */
import { quoteIdentifier } from "./sql-identifier";

/** The quoted names of the schema and of the two tables. */
export interface Tables {
  schema: string | undefined;
  conversations: string;
  messages: string;
  /** The run claims (`<prefix>runs`), created on the first claim. */
  runs: string;
}

/** The tables under `schema` (none: the connection's search_path) named with `prefix`. */
export function tablesFor(schema: string | undefined, prefix: string): Tables {
  const qualifier = schema === undefined ? "" : `${quoteIdentifier(schema, "schema")}.`;
  return {
    schema: schema === undefined ? undefined : quoteIdentifier(schema, "schema"),
    conversations: qualifier + quoteIdentifier(`${prefix}conversations`, "tablePrefix"),
    messages: qualifier + quoteIdentifier(`${prefix}messages`, "tablePrefix"),
    runs: qualifier + quoteIdentifier(`${prefix}runs`, "tablePrefix"),
  };
}

/** The statements of {@link createQueries}. */
export type Queries = ReturnType<typeof createQueries>;

/** Every statement the store runs, for one set of tables. */
export function createQueries({ conversations, messages }: Tables) {
  /** Inserts the elements of the JSON array parameter `$<parameter>` after the row `claim` returned. */
  const insertElements = (claim: string, parameter: number) =>
    `INSERT INTO ${messages} (conversation_id, ordinal, message)
     SELECT ${claim}.id, ${claim}.first_ordinal + element.ordinality - 1, element.value
     FROM ${claim}, json_array_elements($${parameter}::json) WITH ORDINALITY AS element (value, ordinality)`;
  return {
    selectState: `SELECT version, message_count FROM ${conversations} WHERE id = $1`,
    load: `SELECT c.version, m.message::text AS message
           FROM ${conversations} c LEFT JOIN ${messages} m ON m.conversation_id = c.id
           WHERE c.id = $1 ORDER BY m.ordinal`,
    /** $1 id, $2 first ordinal (null: the newest $3), $3 limit: the count, the start and the window's rows. */
    loadRange: `WITH c AS (
        SELECT id, message_count,
               CASE WHEN $2::int IS NULL THEN GREATEST(0, message_count - $3::int) ELSE LEAST($2::int, message_count) END AS start
        FROM ${conversations} WHERE id = $1
      )
      SELECT c.message_count, c.start, m.message::text AS message
      FROM c LEFT JOIN ${messages} m
        ON m.conversation_id = c.id AND m.ordinal >= c.start AND m.ordinal < c.start + $3::int
      ORDER BY m.ordinal`,
    appendToNew: `WITH created AS (
        INSERT INTO ${conversations} (id, version, message_count) VALUES ($1, 1, $2)
        ON CONFLICT (id) DO NOTHING RETURNING id, 0 AS first_ordinal
      ) ${insertElements("created", 3)}`,
    appendToExisting: `WITH claimed AS (
        UPDATE ${conversations} SET version = version + 1, message_count = message_count + $3, updated_at = now()
        WHERE id = $1 AND version = $2 RETURNING id, message_count - $3 AS first_ordinal
      ) ${insertElements("claimed", 4)}`,
    createConversation: `INSERT INTO ${conversations} (id, version, message_count) VALUES ($1, 1, $2) ON CONFLICT (id) DO NOTHING`,
    claimForReplace: `UPDATE ${conversations} SET version = version + 1, message_count = $3, updated_at = now()
                      WHERE id = $1 AND version = $2`,
    deleteMessages: `DELETE FROM ${messages} WHERE conversation_id = $1`,
    deleteMessagesFrom: `DELETE FROM ${messages} WHERE conversation_id = $1 AND ordinal >= $2`,
    insertMessages: `INSERT INTO ${messages} (conversation_id, ordinal, message)
                     SELECT $1, element.ordinality - 1, element.value
                     FROM json_array_elements($2::json) WITH ORDINALITY AS element (value, ordinality)`,
    insertMessagesFrom: `INSERT INTO ${messages} (conversation_id, ordinal, message)
                         SELECT $1, $3 + element.ordinality - 1, element.value
                         FROM json_array_elements($2::json) WITH ORDINALITY AS element (value, ordinality)`,
    deleteConversation: `DELETE FROM ${conversations} WHERE id = $1`,
    copyConversation: `INSERT INTO ${conversations} (id, version, message_count)
                       SELECT $1, 1, message_count FROM ${conversations} WHERE id = $2`,
    copyMessages: `INSERT INTO ${messages} (conversation_id, ordinal, message)
                   SELECT $1, ordinal, message FROM ${messages} WHERE conversation_id = $2`,
    listConversations: `SELECT id, message_count, updated_at FROM ${conversations} ORDER BY updated_at DESC, id`,
  };
}
