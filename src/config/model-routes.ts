/**
 * The operator's model table (PATCHSMITH_MODELS_FILE, YAML or JSON): the model names repositories may write in their
 * config, each with the OpenAI-compatible endpoint that serves it (a local vLLM or Ollama for one, Azure for another),
 * the name that endpoint knows it by, and its price, so reports can give the cost. Keys are never written in the
 * file: each route names the variable that holds its key. A name the table does not list goes to the default
 * endpoint (OPENAI_BASE_URL) as it is.
 *
 *   local-coder:
 *     base-url: http://vllm.internal:8000/v1
 *     api-key-env: VLLM_API_KEY
 *     model: Qwen/Qwen2.5-Coder-32B-Instruct
 *     price: { input: 0.2, output: 0.6 }     # USD per million tokens
 *     edit-format: udiff                     # the dialect it is taught (default editblock)
 *   gpt-4.1:
 *     price: { input: 2, output: 8 }         # the default endpoint; only its price
 */
import { parse as parseYaml } from "yaml";
import { z } from "zod";
import { FORMAT_NAMES, type FormatName } from "../core/edit.js";

const routeSchema = z.strictObject({
  "base-url": z.url({ protocol: /^https?$/ }).optional(),
  "api-key-env": z
    .string()
    .regex(/^[A-Za-z_][A-Za-z0-9_]*$/, "must be a variable name")
    .optional(),
  model: z.string().trim().min(1).optional(),
  "max-tokens-field": z.enum(["max_tokens", "max_completion_tokens"]).optional(),
  "edit-format": z.enum(FORMAT_NAMES).optional(),
  price: z.strictObject({ input: z.number().min(0), output: z.number().min(0) }).optional(),
});

const tableSchema = z.record(z.string().trim().min(1), routeSchema);

/** USD per million tokens. */
export interface Price {
  readonly input: number;
  readonly output: number;
}

export interface ModelRoute {
  /** Undefined: the default endpoint. */
  readonly baseURL?: string;
  readonly apiKey?: string;
  /** The name the endpoint knows the model by. */
  readonly model: string;
  readonly maxTokensField?: "max_tokens" | "max_completion_tokens";
  readonly price?: Price;
  /** The dialect this model is taught unless the repository says otherwise (as Aider picks one per model family). */
  readonly editFormat?: FormatName;
}

export type ModelRoutesResult =
  | { readonly ok: true; readonly routes: ReadonlyMap<string, ModelRoute> }
  | { readonly ok: false; readonly message: string };

/** Parses the table; `vars` gives the keys the routes name. */
export function parseModelRoutes(
  text: string,
  source: string,
  vars: Readonly<Record<string, string | undefined>>,
): ModelRoutesResult {
  let data: unknown;
  try {
    data = parseYaml(text, { maxAliasCount: 10 }) ?? {};
  } catch (error) {
    return {
      ok: false,
      message: `${source} is not valid YAML: ${error instanceof Error ? error.message : String(error)}`,
    };
  }
  const parsed = tableSchema.safeParse(data);
  if (!parsed.success) return { ok: false, message: `${source}:\n${z.prettifyError(parsed.error)}` };
  const routes = new Map<string, ModelRoute>();
  for (const [name, route] of Object.entries(parsed.data)) {
    const keyName = route["api-key-env"];
    const apiKey = keyName === undefined ? undefined : vars[keyName];
    if (keyName !== undefined && (apiKey === undefined || apiKey === "")) {
      return { ok: false, message: `${source}: model ${name} takes its key from ${keyName}, which is not set` };
    }
    routes.set(name, {
      ...(route["base-url"] === undefined ? {} : { baseURL: route["base-url"] }),
      ...(apiKey === undefined ? {} : { apiKey }),
      model: route.model ?? name,
      ...(route["max-tokens-field"] === undefined ? {} : { maxTokensField: route["max-tokens-field"] }),
      ...(route["edit-format"] === undefined ? {} : { editFormat: route["edit-format"] }),
      ...(route.price === undefined ? {} : { price: route.price }),
    });
  }
  return { ok: true, routes };
}
