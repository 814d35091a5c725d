import { createRequire } from 'node:module';

/*
 * electron-updater downloads through Electron's `net` module, which only exists inside Electron. This
 * executor is the same download over Node's http: it hands the request to builder-util-runtime's
 * `doDownload`, the code that streams the file and checks its sha512 in the app too.
 */
const require = createRequire(import.meta.url);
const { NodeHttpExecutor } = require('builder-util/out/nodeHttpExecutor') as {
  NodeHttpExecutor: new () => DownloadCapable;
};
const runtime = require('builder-util-runtime') as {
  configureRequestUrl(url: URL, options: Record<string, unknown>): void;
  configureRequestOptions(options: Record<string, unknown>): void;
};

interface DownloadCapable {
  doDownload(
    requestOptions: Record<string, unknown>,
    options: Record<string, unknown>,
    redirects: number,
  ): void;
}

interface CancellablePromiseFactory {
  createPromise<T>(
    run: (
      resolve: (value: T) => void,
      reject: (error: Error) => void,
      onCancel: (cb: () => void) => void,
    ) => void,
  ): Promise<T>;
}

export function nodeUpdateHttp(): unknown {
  const executor = new NodeHttpExecutor();
  return Object.assign(executor, {
    download(
      url: URL,
      destination: string,
      options: { headers?: unknown; cancellationToken: CancellablePromiseFactory },
    ) {
      return options.cancellationToken.createPromise<string>((resolve, reject, onCancel) => {
        const requestOptions: Record<string, unknown> = {
          headers: options.headers || undefined,
          redirect: 'manual',
        };
        runtime.configureRequestUrl(url, requestOptions);
        runtime.configureRequestOptions(requestOptions);
        executor.doDownload(
          requestOptions,
          {
            destination,
            options,
            onCancel,
            callback: (error: Error | null) => (error ? reject(error) : resolve(destination)),
            responseHandler: null,
          },
          0,
        );
      });
    },
  });
}
