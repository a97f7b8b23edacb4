/**
 * The mock server's Google Vertex AI route: Claude on Vertex is the Messages API under another URL
 * shape — `POST …/projects/{project}/locations/{region}/publishers/anthropic/models/{model}:streamRawPredict`
 * (streaming) or `:rawPredict` (JSON) — with the model in the path instead of the body and the API
 * version in the body as `anthropic_version`. What `@anthropic-ai/vertex-sdk` sends is answered
 * like `/v1/messages`.
 * @module
 */

/** A request to the Vertex route, as read from its path. */
export interface VertexRoute {
  project: string;
  region: string;
  model: string;
  /** `streamRawPredict` (server-sent events) or `rawPredict` (one JSON body). */
  method: "streamRawPredict" | "rawPredict";
}

const VERTEX_PATH =
  /\/projects\/([^/]+)\/locations\/([^/]+)\/publishers\/anthropic\/models\/([^/:]+):(streamRawPredict|rawPredict)$/;

/** The Vertex route `pathname` names, or `undefined` when it is not one. */
export function vertexRouteOf(pathname: string): VertexRoute | undefined {
  const match = VERTEX_PATH.exec(pathname);
  if (!match) return undefined;
  const [, project, region, model, method] = match;
  return {
    project: decodeURIComponent(project!),
    region: decodeURIComponent(region!),
    model: decodeURIComponent(model!),
    method: method as VertexRoute["method"],
  };
}

/**
 * The Messages API body a Vertex request stands for (the model from the path, `stream` from the
 * method), or the refusal Vertex would give: `anthropic_version` missing, or `model` in the body.
 */
export function messagesBodyOfVertex(
  route: VertexRoute,
  body: Record<string, unknown>,
): { body: Record<string, unknown> } | { refusal: string } {
  if (typeof body.anthropic_version !== "string" || body.anthropic_version === "") {
    return { refusal: "mock server (Vertex): anthropic_version: Field required" };
  }
  if ("model" in body) {
    return {
      refusal: "mock server (Vertex): model: Extra inputs are not permitted (the model goes in the URL)",
    };
  }
  const { anthropic_version: _version, ...rest } = body;
  return {
    body: {
      ...rest,
      model: route.model,
      stream: route.method === "streamRawPredict" && body.stream === true,
    },
  };
}
