import { PassThrough, type Readable } from 'node:stream';
import type { S3Config } from '../../config.ts';
import { type FileStorage, measuring, newStorageKey, STORAGE_KEY } from './storage.ts';

type S3 = typeof import('@aws-sdk/client-s3');

type Connection = { s3: S3; client: InstanceType<S3['S3Client']> };
const connections = new Map<string, Promise<Connection>>();

/**
 * The SDK and a client for `config`, made on the first call and shared by every caller with the
 * same settings (attachments and exports). The SDK loads then, so a server without S3 configured
 * never pays for it.
 */
export function s3Connect(config: S3Config): Promise<Connection> {
  const id = JSON.stringify(config);
  let c = connections.get(id);
  if (!c) {
    c = import('@aws-sdk/client-s3').then((s3) => ({
      s3,
      client: new s3.S3Client({
        region: config.region,
        endpoint: config.endpoint,
        forcePathStyle: config.forcePathStyle,
        credentials:
          config.accessKeyId && config.secretAccessKey
            ? { accessKeyId: config.accessKeyId, secretAccessKey: config.secretAccessKey }
            : undefined,
      }),
    }));
    connections.set(id, c);
  }
  return c;
}

/** True when the SDK error says the object does not exist. */
export const isMissing = (e: any) =>
  e?.name === 'NoSuchKey' || e?.name === 'NotFound' || e?.$metadata?.httpStatusCode === 404;

/**
 * Attachments in an S3-compatible bucket (AWS S3, MinIO, Ceph…) under `<prefix><yyyy>/<mm>/<uuid>`.
 * Uploads stream through `@aws-sdk/lib-storage` (one PUT below 5 MB, multipart above), measured and
 * hashed on the way like the filesystem store.
 */
export function s3Storage(config: S3Config): FileStorage {
  const connect = () => s3Connect(config);
  const objectKey = (key: string) => {
    if (!STORAGE_KEY.test(key)) throw new Error(`bad storage key ${key}`);
    return `${config.prefix}${key}`;
  };
  return {
    async put(source) {
      const { client } = await connect();
      const { Upload } = await import('@aws-sdk/lib-storage');
      const key = newStorageKey();
      const { tap, result } = measuring();
      const body = new PassThrough();
      source.on('error', (e) => body.destroy(e));
      source.pipe(tap).pipe(body);
      await new Upload({
        client,
        params: { Bucket: config.bucket, Key: objectKey(key), Body: body },
        queueSize: 2,
      }).done();
      return result(key);
    },
    async open(key) {
      const { s3, client } = await connect();
      try {
        const answer = await client.send(
          new s3.GetObjectCommand({ Bucket: config.bucket, Key: objectKey(key) }),
        );
        return answer.Body as Readable;
      } catch (e: any) {
        // The callers treat a missing file as the filesystem does.
        if (isMissing(e)) throw Object.assign(new Error(`ENOENT: ${key}`), { code: 'ENOENT' });
        throw e;
      }
    },
    async remove(key) {
      const { s3, client } = await connect();
      await client.send(new s3.DeleteObjectCommand({ Bucket: config.bucket, Key: objectKey(key) }));
    },
  };
}
