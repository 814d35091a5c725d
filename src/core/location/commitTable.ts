import { QuireError } from '../../shared/errors';
import { signRequest, type AwsCredentials } from './awsSigning';
import { withoutSecrets, type LibraryLocation } from './libraryLocation';

/** A DynamoDB attribute value, as the JSON protocol writes it. */
export type Attribute = { S: string } | { N: string };
export type Item = Record<string, Attribute>;

/**
 * The DynamoDB table an `s3+ddb://` library commits through (hash key `base_uri`, range key
 * `version`, as LanceDB expects). Quire keeps its writer lease there too, under a base_uri of its own.
 */
export class CommitTable {
  private readonly endpoint: string;

  constructor(
    readonly location: LibraryLocation,
    private readonly credentials: AwsCredentials,
  ) {
    this.endpoint = location.dynamodbEndpoint ?? `https://dynamodb.${location.region}.amazonaws.com`;
  }

  get name(): string {
    if (!this.location.commitTable) throw new QuireError('internal', 'This library has no commit table.');
    return this.location.commitTable;
  }

  /** Sends one call of DynamoDB's JSON protocol; null when a condition failed. */
  async call(action: string, input: object, signal?: AbortSignal): Promise<Record<string, unknown> | null> {
    const url = new URL(this.endpoint);
    const body = new TextEncoder().encode(JSON.stringify(input));
    const headers = signRequest(
      {
        method: 'POST',
        url,
        headers: {
          'content-type': 'application/x-amz-json-1.0',
          'x-amz-target': `DynamoDB_20120810.${action}`,
        },
        body,
      },
      this.credentials,
      this.location.region,
      'dynamodb',
    );
    delete headers.host;
    let response: Response;
    try {
      response = await fetch(url, {
        method: 'POST',
        headers,
        body: Buffer.from(body),
        ...(signal ? { signal } : {}),
      });
    } catch (error) {
      if (signal?.aborted) throw error;
      const cause = (error as { cause?: { code?: string } }).cause?.code ?? String(error);
      throw new QuireError(
        'not_readable',
        `The commit table of ${this.location.uri} cannot be reached (${this.endpoint}): ${withoutSecrets(cause, this.credentials)}`,
      );
    }
    const text = await response.text();
    if (response.ok) return text ? (JSON.parse(text) as Record<string, unknown>) : {};
    const type = String(
      (JSON.parse(text || '{}') as { __type?: string }).__type ?? `HTTP ${response.status}`,
    );
    if (type.endsWith('ConditionalCheckFailedException')) return null;
    if (/UnrecognizedClient|InvalidSignature|AccessDenied|MissingAuthentication/.test(type))
      throw new QuireError(
        'forbidden',
        `The commit table of ${this.location.uri} refused these credentials (${type.split('#').pop()}).`,
      );
    throw new QuireError(
      'not_readable',
      `The commit table of ${this.location.uri} answered ${type.split('#').pop()} to ${action}.`,
    );
  }

  async get(key: Item, signal?: AbortSignal): Promise<Item | null> {
    const result = await this.call(
      'GetItem',
      { TableName: this.name, Key: key, ConsistentRead: true },
      signal,
    );
    return (result?.Item as Item | undefined) ?? null;
  }

  /** Puts an item only when the condition holds; false when it did not. */
  async putIf(item: Item, condition: string, values: Item = {}, signal?: AbortSignal): Promise<boolean> {
    const result = await this.call(
      'PutItem',
      {
        TableName: this.name,
        Item: item,
        ConditionExpression: condition,
        ...(Object.keys(values).length > 0 ? { ExpressionAttributeValues: values } : {}),
      },
      signal,
    );
    return result !== null;
  }

  async deleteIf(key: Item, condition: string, values: Item, signal?: AbortSignal): Promise<boolean> {
    const result = await this.call(
      'DeleteItem',
      { TableName: this.name, Key: key, ConditionExpression: condition, ExpressionAttributeValues: values },
      signal,
    );
    return result !== null;
  }

  /** Creates the table with the keys LanceDB expects, if it is not there yet. */
  async ensure(signal?: AbortSignal): Promise<void> {
    const described = await this.call('DescribeTable', { TableName: this.name }, signal).catch(
      (error: unknown) =>
        error instanceof QuireError && /ResourceNotFound/.test(error.message) ? null : Promise.reject(error),
    );
    if (described) return;
    await this.call(
      'CreateTable',
      {
        TableName: this.name,
        AttributeDefinitions: [
          { AttributeName: 'base_uri', AttributeType: 'S' },
          { AttributeName: 'version', AttributeType: 'N' },
        ],
        KeySchema: [
          { AttributeName: 'base_uri', KeyType: 'HASH' },
          { AttributeName: 'version', KeyType: 'RANGE' },
        ],
        BillingMode: 'PAY_PER_REQUEST',
      },
      signal,
    );
  }
}
