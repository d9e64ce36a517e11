import { ROLE_ADMIN } from "@app/core";
import type { AppContext } from "../../context";
import type { UsersTable } from "../../infra/db/schema";
import type { auditLog } from "../audit/record";
import type { companyRecords } from "../companies/service";
import type { usersRepo } from "./repo";
import type { ForcedFlowOf } from "./service";

/** The acting user, as the route's session resolved it. */
export interface Actor {
  id: string;
  companyId: string;
  roleName: string;
}

export const isAdmin = (actor: Actor) => actor.roleName === ROLE_ADMIN;

/**
 * What every use case of the users service works with: the context, the repo, the audit log, the company
 * rows, the hooks given at start-up and a member of the actor's company by id. `service.ts` builds it
 * once and hands it to each use-case module: invitations.ts and members.ts.
 */
export interface UsersDeps {
  ctx: AppContext;
  repo: ReturnType<typeof usersRepo>;
  companies: ReturnType<typeof companyRecords>;
  audit: ReturnType<typeof auditLog>;
  onAccountChange: () => void;
  forcedFlowOf: ForcedFlowOf;
  /** The member of the actor's company, or a 404. */
  loadInCompany(actor: Actor, id: string): Promise<UsersTable>;
}
