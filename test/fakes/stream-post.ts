/** An HTTP client that streams a body chunk by chunk and stops as soon as the server answers (a refused upload). */
import { request as httpRequest } from "node:http";

export interface StreamedAnswer {
  /** 0: the server closed the connection before its answer was read (a reset while still sending). */
  readonly status: number;
  readonly body: string;
}

/**
 * POSTs `chunks` to `url` one by one (chunked unless a content-length header is given). A server that answers and
 * closes while the body is still being sent may reset the connection before the answer is read: that resolves with
 * status 0 (the request was refused either way); other errors reject.
 */
export function streamPost(
  url: string,
  headers: Readonly<Record<string, string>>,
  chunks: readonly (string | Buffer)[],
): Promise<StreamedAnswer> {
  return new Promise((resolve, reject) => {
    // A fresh connection each time: a refused upload's connection is closed under it.
    const request = httpRequest(url, { method: "POST", headers, agent: false });
    let answered = false;
    request.on("response", (response) => {
      answered = true;
      let body = "";
      response.on("data", (chunk: Buffer) => {
        body += chunk.toString("utf8");
      });
      response.on("end", () => {
        resolve({ status: response.statusCode ?? 0, body });
      });
    });
    request.on("error", (error: NodeJS.ErrnoException) => {
      if (answered) return;
      if (error.code === "ECONNRESET" || error.code === "EPIPE") resolve({ status: 0, body: "" });
      else reject(error);
    });
    const pump = (i: number): void => {
      if (answered || i >= chunks.length) {
        request.end();
        return;
      }
      if (request.write(chunks[i]!))
        setImmediate(() => {
          pump(i + 1);
        });
      else
        request.once("drain", () => {
          pump(i + 1);
        });
    };
    pump(0);
  });
}
