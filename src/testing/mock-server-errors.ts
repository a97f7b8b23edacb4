/**
 * The Messages API's error bodies, for the mock server's faults.
 * @module
 */

/** An error body as the API sends it. */
export interface ApiErrorBody {
  type: "error";
  error: { type: string; message: string };
  request_id?: string;
}

const ERROR_TYPE_BY_STATUS: Record<number, string> = {
  400: "invalid_request_error",
  401: "authentication_error",
  402: "billing_error",
  403: "permission_error",
  404: "not_found_error",
  413: "request_too_large",
  429: "rate_limit_error",
  500: "api_error",
  504: "timeout_error",
  529: "overloaded_error",
};

const MESSAGE_BY_ERROR_TYPE: Record<string, string> = {
  invalid_request_error: "Invalid request.",
  authentication_error: "invalid x-api-key",
  billing_error: "Your credit balance is too low to access the API.",
  permission_error: "Your API key does not have permission to use the specified resource.",
  not_found_error: "The requested resource could not be found.",
  request_too_large: "Request exceeds the maximum allowed number of bytes.",
  rate_limit_error: "This request would exceed your rate limit. Please try again later.",
  api_error: "Internal server error",
  timeout_error: "Request timed out.",
  overloaded_error: "Overloaded",
};

/** The API's error type for an HTTP status (`api_error` for unlisted 5xx, `invalid_request_error` for 4xx). */
export function errorTypeForStatus(status: number): string {
  return ERROR_TYPE_BY_STATUS[status] ?? (status >= 500 ? "api_error" : "invalid_request_error");
}

/** The HTTP status the API answers an error type with (500 for unknown types). */
export function statusForErrorType(errorType: string): number {
  const entry = Object.entries(ERROR_TYPE_BY_STATUS).find(([, type]) => type === errorType);
  return entry ? Number(entry[0]) : 500;
}

/** Builds an error body; the message defaults to the API's usual wording for the type. */
export function apiErrorBody(errorType: string, message?: string, requestId?: string): ApiErrorBody {
  const body: ApiErrorBody = {
    type: "error",
    error: { type: errorType, message: message ?? MESSAGE_BY_ERROR_TYPE[errorType] ?? errorType },
  };
  if (requestId) body.request_id = requestId;
  return body;
}
