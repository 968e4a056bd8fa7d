/** The physical table the floor and the raw-`pg` baseline query (schema = the base's schema). */
export interface FloorTable {
  schema: string;
  tableName: string;
}

/** Output columns of a record (what the data service selects for the bench table). */
export const COLS = 'id, name, score, price, done, due, note, email, qty, status, city, created_at, updated_at';
const INSERT_COLS = ['name', 'score', 'price', 'done', 'due', 'note', 'email', 'qty', 'status', 'city', 'created_by', 'updated_by', 'nc_order'];
/** Stamped once per request: a bulk statement takes them once, not per row. */
const SHARED_COLS = ['created_by', 'updated_by'];

/**
 * The SQL the data service runs for each benchmarked call, as text, shared by
 * the raw-`pg` baseline (in the bench process) and the floor server (its own process).
 */
export function floorSql(t: FloorTable) {
  const q = `"${t.schema}"."${t.tableName}"`;
  const cols = INSERT_COLS.join(', ');
  /** An API body (titles) as a stored row (column names), stamped like the API does. */
  const dbRow = (body: Record<string, unknown>): Record<string, unknown> => {
    const row: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(body)) row[k.toLowerCase()] = v;
    row.created_by = 'u';
    row.updated_by = 'u';
    row.nc_order = Date.now() + Math.random();
    return row;
  };
  return {
    /** The minimal floor (issue 34): the least SQL each request needs — `select *` by id order, by primary key, one insert returning `*`. */
    minimal: {
      list: `select * from ${q} order by id limit 25`,
      read: `select * from ${q} where id = $1`,
      insert: `insert into ${q} (${cols}) values (${INSERT_COLS.map((_, k) => `$${k + 1}`).join(', ')}) returning *`,
    },
    list: `select ${COLS} from ${q} order by nc_order asc, id asc limit 25`,
    whereSort: `select ${COLS} from ${q} where score > $1 order by score DESC NULLS LAST, nc_order asc, id asc limit 25`,
    boundedCount: `select count(*) as n from (select 1 from ${q} where score > $1 limit $2) s`,
    read: `select ${COLS} from ${q} where id in ($1)`,
    insertOne: `insert into ${q} (${cols}) values (${INSERT_COLS.map((_, k) => `$${k + 1}`).join(', ')}) returning ${COLS}`,
    insertValues: (body: Record<string, unknown>) => { const row = dbRow(body); return INSERT_COLS.map((c) => row[c]); },
    /** Rows as $1 without the user stamps, which one request shares ($2, once), as the data service sends them. */
    bulk: `insert into ${q} (${cols}) select ${INSERT_COLS.map((c) => (SHARED_COLS.includes(c) ? `s.${c}` : `r.${c}`)).join(', ')} from json_populate_recordset(null::${q}, $1::json) with ordinality as r cross join json_populate_record(null::${q}, $2::json) as s order by r.ordinality returning ${COLS}`,
    bulkValues: (bodies: Record<string, unknown>[]) => {
      const rows = bodies.map((b) => { const row = dbRow(b); for (const c of SHARED_COLS) delete row[c]; return row; });
      return [JSON.stringify(rows), JSON.stringify({ created_by: 'u', updated_by: 'u' })];
    },
    dbRow,
  };
}
