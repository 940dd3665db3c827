/**
 * One ModelClient over several OpenAI-compatible endpoints: the model a request names picks its route (the
 * operator's table, config/model-routes.ts), which gives the endpoint, the name to send and the price. A name with
 * no route goes to the default endpoint unchanged. Each endpoint's client is made once and kept (the SDK pools its
 * connections), and the response carries the route's price, so the loop can count the cost.
 */
import type { ModelRoute } from "../config/model-routes.js";
import type { ChatResponse, ModelClient } from "../ports/model-client.js";
import { createOpenAIModelClient, type OpenAIModelClientOptions } from "./openai-model.js";

export function createRoutedModelClient(
  routes: ReadonlyMap<string, ModelRoute>,
  defaults: OpenAIModelClientOptions,
): ModelClient {
  const fallback = createOpenAIModelClient(defaults);
  const clients = new Map<string, ModelClient>();
  const clientFor = (name: string, route: ModelRoute): ModelClient => {
    if (route.baseURL === undefined && route.apiKey === undefined && route.maxTokensField === undefined)
      return fallback;
    let client = clients.get(name);
    if (client === undefined) {
      client = createOpenAIModelClient({
        ...defaults,
        apiKey: route.apiKey ?? defaults.apiKey,
        ...(route.baseURL === undefined ? {} : { baseURL: route.baseURL }),
        ...(route.maxTokensField === undefined ? {} : { maxTokensField: route.maxTokensField }),
      });
      clients.set(name, client);
    }
    return client;
  };
  return {
    async complete(request): Promise<ChatResponse> {
      const route = routes.get(request.model);
      if (route === undefined) return fallback.complete(request);
      const response = await clientFor(request.model, route).complete({ ...request, model: route.model });
      return route.price === undefined ? response : { ...response, price: route.price };
    },
    editFormatFor: (model) => routes.get(model)?.editFormat,
  };
}
