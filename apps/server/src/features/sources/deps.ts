import type { Connector, ConnectorRuntime } from "../../connectors";
import type { AppContext } from "../../context";
import type { SourcesTable } from "../../infra/db/schema";
import type { FilesService } from "../files/service";
import type { SourceChanges } from "./changes";
import type { sourcesRepo } from "./repo";

/**
 * What every use case of the sources service works with: the context, the repo, the files feature (upload
 * sources' files), what connectors may use of the server, how a change is announced, and a company's source
 * row with its connector. `service.ts` builds it once and hands it to each use-case module.
 */
export interface SourceDeps {
  ctx: AppContext;
  repo: ReturnType<typeof sourcesRepo>;
  files: FilesService;
  runtime: ConnectorRuntime;
  changes: SourceChanges;
  /** The company's source row, or a 404. */
  loadRow(companyId: string, id: string): Promise<SourcesTable>;
  /** The row's connector; a row whose connector left the catalogue is a SourceFailure. */
  connectorOf(row: SourcesTable): Connector;
}
