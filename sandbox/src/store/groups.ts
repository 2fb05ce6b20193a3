import {
  CreateGroup,
  MAX_GROUP_MEMBERS,
  UpdateGroup,
  compareMembers,
  memberKey,
  type CloudGroup,
  type FieldError,
  type Member,
  type Page,
  type PageQuery,
} from "@cloudcost/api/contract";
import type { Db } from "./connection";
import { newId } from "./ids";
import { pageOfTable } from "./paging";
import { conflict, notFound, unprocessable } from "../errors";
import { parseOrThrow } from "../validation";
import type { Accounts } from "./accounts";
import { groupReferences } from "./group-references";
import { sql, updateRow } from "./statements";

export type GroupSource = CloudGroup["source"];

interface MemberRow {
  group_id: string;
  provider: Member["provider"];
  account_id: string;
}

interface GroupRow {
  seq: number;
  id: string;
  name: string;
  description: string;
  source: GroupSource;
  created_at: string;
  updated_at: string;
}

/** Names are unique per organization case-insensitively (contract: `GroupName`). */
const nameKey = (name: string): string => name.toLowerCase();

/** Cloud Groups and their member sets, scoped to an organization. */
export class Groups {
  constructor(
    private readonly db: Db,
    private readonly accounts: Accounts,
  ) {}

  list(orgId: string): CloudGroup[] {
    return this.views(sql(this.db, "SELECT * FROM cloud_groups WHERE org_id = ? ORDER BY seq").all(orgId) as GroupRow[]);
  }

  page(orgId: string, q: PageQuery): Page<CloudGroup> {
    const page = pageOfTable({ db: this.db, list: "groups", orgId }, "cloud_groups", q, (r: GroupRow) => r);
    return { items: this.views(page.items), nextCursor: page.nextCursor };
  }

  get(orgId: string, id: string): CloudGroup | undefined {
    const r = this.row(orgId, id);
    return r && this.view(r);
  }

  /** Like `get`, but an unknown group (or one of another organization) is a 404. */
  require(orgId: string, id: string): CloudGroup {
    const g = this.get(orgId, id);
    if (!g) throw notFound(`No Cloud Group ${id} in this organization.`);
    return g;
  }

  /** The group that has `name` now (names are unique case-insensitively); a 404 when none has. */
  requireNamed(orgId: string, name: string): CloudGroup {
    const r = sql(this.db, "SELECT * FROM cloud_groups WHERE org_id = ? AND name_key = ?").get(orgId, nameKey(name)) as
      GroupRow | undefined;
    if (!r)
      throw notFound(`No Cloud Group named "${name}" in this organization.`, [
        { path: "query.currentName", code: "unknown_group", message: `no Cloud Group is named "${name}"` },
      ]);
    return this.view(r);
  }

  /** Creates a group; `input` is validated by the contract's `CreateGroup` (the portal passes raw form values). */
  create(orgId: string, input: CreateGroup, source: GroupSource): CloudGroup {
    const fields = parseOrThrow(CreateGroup, input, "body");
    this.assertNameFree(orgId, fields.name);
    const id = newId("grp");
    const now = new Date().toISOString();
    sql(
      this.db,
      "INSERT INTO cloud_groups (id, org_id, name, name_key, description, source, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
    ).run(id, orgId, fields.name, nameKey(fields.name), fields.description, source, now, now);
    return this.require(orgId, id);
  }

  update(orgId: string, id: string, input: UpdateGroup): CloudGroup {
    const fields = parseOrThrow(UpdateGroup, input, "body");
    const current = this.require(orgId, id);
    if (fields.name !== undefined && nameKey(fields.name) !== nameKey(current.name)) this.assertNameFree(orgId, fields.name);
    const name = fields.name ?? current.name;
    const description = fields.description ?? current.description;
    if (name !== current.name || description !== current.description) {
      updateRow(this.db, "cloud_groups", id, { name, name_key: nameKey(name), description });
    }
    return this.require(orgId, id);
  }

  /** A group is in use while an alert or report points at it: deleting it then is a 409 naming them. */
  delete(orgId: string, id: string): void {
    this.require(orgId, id);
    const users = groupReferences(this.db, id);
    if (users.length) throw conflict(`Cloud Group ${id} is used by ${users.join(", ")}; point those elsewhere or delete them first.`);
    sql(this.db, "DELETE FROM cloud_groups WHERE id = ? AND org_id = ?").run(id, orgId);
  }

  members(orgId: string, id: string): Member[] {
    this.require(orgId, id);
    return this.memberRows(id);
  }

  /** Adding a present member changes nothing (not even `updatedAt`). */
  addMember(orgId: string, id: string, member: Member): CloudGroup {
    const current = this.require(orgId, id);
    this.assertConnected(orgId, [member], (): string => "body.accountId");
    if (current.members.some((m) => memberKey(m) === memberKey(member))) return current;
    if (current.members.length >= MAX_GROUP_MEMBERS) {
      throw unprocessable(`A Cloud Group has at most ${MAX_GROUP_MEMBERS} members.`, [
        { path: "body", code: "too_many_members", message: `the group already has ${MAX_GROUP_MEMBERS} members` },
      ]);
    }
    sql(this.db, "INSERT INTO group_members (group_id, provider, account_id) VALUES (?, ?, ?)").run(id, member.provider, member.accountId);
    return this.touch(orgId, id);
  }

  removeMember(orgId: string, id: string, member: Member): CloudGroup {
    this.require(orgId, id);
    const gone =
      sql(this.db, "DELETE FROM group_members WHERE group_id = ? AND provider = ? AND account_id = ?").run(
        id,
        member.provider,
        member.accountId,
      ).changes > 0;
    if (!gone) throw notFound(`${member.provider} account ${member.accountId} is not a member of Cloud Group ${id}.`);
    return this.touch(orgId, id);
  }

  /** Replaces the member set; duplicates collapse because members are a set. */
  replaceMembers(orgId: string, id: string, members: readonly Member[]): CloudGroup {
    const current = this.require(orgId, id);
    this.assertConnected(orgId, members, (i) => `body.members.${i}.accountId`);
    const wanted = [...new Map(members.map((m) => [memberKey(m), m])).values()].sort(compareMembers);
    if (wanted.map(memberKey).join() === current.members.map(memberKey).join()) return current;
    sql(this.db, "DELETE FROM group_members WHERE group_id = ?").run(id);
    const insert = sql(this.db, "INSERT INTO group_members (group_id, provider, account_id) VALUES (?, ?, ?)");
    for (const m of wanted) insert.run(id, m.provider, m.accountId);
    return this.touch(orgId, id);
  }

  private row(orgId: string, id: string): GroupRow | undefined {
    return sql(this.db, "SELECT * FROM cloud_groups WHERE id = ? AND org_id = ?").get(id, orgId) as GroupRow | undefined;
  }

  private memberRows(id: string): Member[] {
    const rows = sql(this.db, "SELECT provider, account_id FROM group_members WHERE group_id = ?").all(id) as {
      provider: Member["provider"];
      account_id: string;
    }[];
    return rows.map((r) => ({ provider: r.provider, accountId: r.account_id }) as Member).sort(compareMembers);
  }

  /** Views of many groups with one member query instead of one per group. */
  private views(rows: readonly GroupRow[]): CloudGroup[] {
    if (rows.length === 0) return [];
    const ids = rows.map((r) => r.id);
    const memberRows = sql(
      this.db,
      `SELECT group_id, provider, account_id FROM group_members WHERE group_id IN (${ids.map(() => "?").join(",")})`,
    ).all(...ids) as MemberRow[];
    const byGroup = new Map<string, Member[]>(ids.map((id) => [id, []]));
    for (const m of memberRows) byGroup.get(m.group_id)?.push({ provider: m.provider, accountId: m.account_id } as Member);
    return rows.map((r) => this.viewWith(r, (byGroup.get(r.id) ?? []).sort(compareMembers)));
  }

  private view(r: GroupRow): CloudGroup {
    return this.viewWith(r, this.memberRows(r.id));
  }

  private viewWith(r: GroupRow, members: Member[]): CloudGroup {
    return {
      id: r.id,
      name: r.name,
      description: r.description,
      members,
      source: r.source,
      createdAt: r.created_at,
      updatedAt: r.updated_at,
    };
  }

  private touch(orgId: string, id: string): CloudGroup {
    updateRow(this.db, "cloud_groups", id);
    return this.require(orgId, id);
  }

  private assertNameFree(orgId: string, name: string): void {
    const taken = sql(this.db, "SELECT id FROM cloud_groups WHERE org_id = ? AND name_key = ?").get(orgId, nameKey(name)) as
      { id: string } | undefined;
    if (taken)
      throw conflict(`A Cloud Group named "${name}" already exists (${taken.id}); names are unique case-insensitively.`, [
        { path: "body.name", code: "duplicate_name", message: "is already used by another Cloud Group" },
      ]);
  }

  /** Only connected accounts can be members; every offending ID is named (422). */
  private assertConnected(orgId: string, members: readonly Member[], pathOf: (index: number) => string): void {
    const errors: FieldError[] = [];
    members.forEach((m, i) => {
      if (!this.accounts.isConnected(orgId, m))
        errors.push({
          path: pathOf(i),
          code: "unknown_account",
          message: `${m.provider} account ${m.accountId} is not connected to this organization`,
        });
    });
    if (errors.length)
      throw unprocessable(`Not connected to this organization: ${errors.map((e) => e.message.split(" is ")[0]).join(", ")}.`, errors);
  }
}
