import type { Page, PageQuery } from "@cloudcost/api/contract";
import type { Db } from "./connection";
import { newId } from "./ids";
import { pageOfTable } from "./paging";
import { notFound, unprocessable } from "../errors";
import type { Groups } from "./groups";
import { sql, updateRow } from "./statements";

/** A stored resource: the client's validated fields plus what the server keeps. */
export interface Stored<F> {
  seq: number;
  id: string;
  fields: F;
  createdAt: string;
  updatedAt: string;
}

interface Row {
  seq: number;
  id: string;
  fields: string;
  created_at: string;
  updated_at: string;
}

/** How a stored resource is answered: its fields plus what the server computes on read. */
export type View<F, V> = (orgId: string, stored: Stored<F>) => V;
/**
 * The fields of a stored row, brought up to the current contract: rows written by an older sandbox lack
 * newer fields, and the contract's defaults fill them in (data folders keep working without a migration).
 */
export type FieldsOf<F> = (stored: unknown) => F;

/**
 * Storage shared by budget alerts and scheduled reports: both are client-defined field sets, scoped to an
 * organization and optionally to one of its Cloud Groups, which must exist (422 otherwise). Every method
 * answers with the resource's `view`.
 */
export class GroupScopedTable<F extends { groupId: string | null }, V> {
  constructor(
    private readonly db: Db,
    private readonly table: string,
    private readonly idPrefix: string,
    private readonly noun: string,
    private readonly groups: Groups,
    private readonly view: View<F, V>,
    private readonly fieldsOf: FieldsOf<F>,
  ) {}

  list(orgId: string): V[] {
    return (sql(this.db, `SELECT * FROM ${this.table} WHERE org_id = ? ORDER BY seq`).all(orgId) as Row[]).map((r) =>
      this.view(orgId, this.toStored(r)),
    );
  }

  page(orgId: string, q: PageQuery): Page<V> {
    return pageOfTable({ db: this.db, list: this.table, orgId }, this.table, q, (r: Row) => this.view(orgId, this.toStored(r)));
  }

  require(orgId: string, id: string): V {
    return this.view(orgId, this.stored(orgId, id));
  }

  create(orgId: string, fields: F): V {
    this.assertGroup(orgId, fields.groupId);
    const id = newId(this.idPrefix);
    const now = new Date().toISOString();
    sql(this.db, `INSERT INTO ${this.table} (id, org_id, group_id, fields, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?)`).run(
      id,
      orgId,
      fields.groupId,
      JSON.stringify(fields),
      now,
      now,
    );
    return this.require(orgId, id);
  }

  /** PUT semantics: the stored fields become exactly `fields`; `updatedAt` moves only when something changed. */
  replace(orgId: string, id: string, fields: F): V {
    const current = this.stored(orgId, id);
    this.assertGroup(orgId, fields.groupId);
    const text = JSON.stringify(fields);
    if (JSON.stringify(current.fields) === text) return this.view(orgId, current);
    updateRow(this.db, this.table, id, { group_id: fields.groupId, fields: text });
    return this.require(orgId, id);
  }

  delete(orgId: string, id: string): void {
    this.stored(orgId, id);
    sql(this.db, `DELETE FROM ${this.table} WHERE id = ? AND org_id = ?`).run(id, orgId);
  }

  private assertGroup(orgId: string, groupId: string | null): void {
    if (groupId !== null && !this.groups.get(orgId, groupId)) {
      throw unprocessable(`No Cloud Group ${groupId} in this organization.`, [
        { path: "body.groupId", code: "unknown_group", message: `Cloud Group ${groupId} does not exist in this organization` },
      ]);
    }
  }

  private stored(orgId: string, id: string): Stored<F> {
    const r = sql(this.db, `SELECT * FROM ${this.table} WHERE id = ? AND org_id = ?`).get(id, orgId) as Row | undefined;
    if (!r) throw notFound(`No ${this.noun} ${id} in this organization.`);
    return this.toStored(r);
  }

  private toStored(r: Row): Stored<F> {
    let fields: F;
    try {
      fields = this.fieldsOf(JSON.parse(r.fields));
    } catch (error) {
      throw new Error(`stored ${this.noun} ${r.id} no longer reads as one`, { cause: error });
    }
    return { seq: r.seq, id: r.id, fields, createdAt: r.created_at, updatedAt: r.updated_at };
  }
}
