/**
 * A minimal MaxMind DB writer for tests (the format: maxmind.github.io/MaxMind-DB): an IPv6 search tree
 * with 24-bit records, IPv4 networks in its first /96 as MaxMind's own databases keep them, and a data
 * section of maps, strings and unsigned integers. The product reads the file with the real `maxmind`
 * package, so a GeoIP lookup is tested against the same format an operator's GeoLite2-City.mmdb has.
 */

type MmdbValue = string | number | MmdbValue[] | { [key: string]: MmdbValue };

/** An IPv4 network ("203.0.113.0/24") and the record its addresses answer with. */
export interface MmdbNetwork {
  network: string;
  record: { [key: string]: MmdbValue };
}

interface TreeNode {
  children: [TreeNode | number | null, TreeNode | number | null];
}

export function writeMmdb(networks: MmdbNetwork[], databaseType = "GeoLite2-City"): Buffer {
  const root: TreeNode = { children: [null, null] };
  const records = networks.map((each) => encode(each.record));
  const offsets: number[] = [];
  let dataSize = 0;
  for (const record of records) {
    offsets.push(dataSize);
    dataSize += record.length;
  }
  networks.forEach((each, index) => {
    insert(root, ipv4Bits(each.network), index);
  });

  // Nodes numbered breadth-first, the root first (node 0).
  const nodes: TreeNode[] = [];
  const queue: TreeNode[] = [root];
  while (queue.length > 0) {
    const node = queue.shift() as TreeNode;
    nodes.push(node);
    for (const child of node.children) if (child !== null && typeof child === "object") queue.push(child);
  }
  const numbers = new Map(nodes.map((node, index) => [node, index]));
  const nodeCount = nodes.length;
  const tree = Buffer.alloc(nodeCount * 6);
  nodes.forEach((node, index) => {
    node.children.forEach((child, side) => {
      // A record is another node, "no data" (= node count), or a data section offset + node count + 16.
      const value =
        child === null
          ? nodeCount
          : typeof child === "number"
            ? nodeCount + 16 + (offsets[child] as number)
            : (numbers.get(child) as number);
      tree.writeUIntBE(value, index * 6 + side * 3, 3);
    });
  });
  const metadata = encode({
    node_count: nodeCount,
    record_size: 24,
    ip_version: 6,
    database_type: databaseType,
    languages: ["en"],
    binary_format_major_version: 2,
    binary_format_minor_version: 0,
    build_epoch: Math.floor(Date.now() / 1000),
    description: { en: "Reportz test database" },
  });
  return Buffer.concat([
    tree,
    Buffer.alloc(16),
    ...records,
    Buffer.from("abcdef4d61784d696e642e636f6d", "hex"),
    metadata,
  ]);
}

/** The network's bits in the IPv6 tree: 96 zero bits, then the IPv4 prefix. */
function ipv4Bits(network: string): number[] {
  const [address, prefix] = network.split("/");
  const octets = address.split(".").map(Number);
  const bits: number[] = new Array(96).fill(0);
  for (let i = 0; i < Number(prefix); i++) bits.push((octets[Math.floor(i / 8)] >> (7 - (i % 8))) & 1);
  return bits;
}

function insert(root: TreeNode, bits: number[], record: number): void {
  let node = root;
  bits.forEach((bit, depth) => {
    const side = bit as 0 | 1;
    if (depth === bits.length - 1) {
      node.children[side] = record;
      return;
    }
    let next = node.children[side];
    if (next === null || typeof next === "number") {
      next = { children: [null, null] };
      node.children[side] = next;
    }
    node = next;
  });
}

/** The data section's encoding: a control byte (type, size), then the payload. */
function encode(value: MmdbValue): Buffer {
  if (typeof value === "string") {
    const bytes = Buffer.from(value, "utf8");
    return Buffer.concat([control(2, bytes.length), bytes]);
  }
  if (typeof value === "number") {
    const bytes = unsigned(value);
    // uint16 (type 5) and uint32 (6) have types of their own; uint64 (9) is an extended type.
    if (value <= 0xffff) return Buffer.concat([control(5, bytes.length), bytes]);
    if (value <= 0xffffffff) return Buffer.concat([control(6, bytes.length), bytes]);
    return Buffer.concat([control(9, bytes.length), bytes]);
  }
  if (Array.isArray(value)) return Buffer.concat([control(11, value.length), ...value.map(encode)]);
  const entries = Object.entries(value);
  return Buffer.concat([control(7, entries.length), ...entries.flatMap(([key, each]) => [encode(key), encode(each)])]);
}

function control(type: number, size: number): Buffer {
  const extended = type > 7;
  const head = [(extended ? 0 : type) << 5];
  const tail: number[] = [];
  if (size < 29) head[0] |= size;
  else if (size < 285) {
    head[0] |= 29;
    tail.push(size - 29);
  } else {
    head[0] |= 30;
    tail.push((size - 285) >> 8, (size - 285) & 0xff);
  }
  if (extended) head.push(type - 7);
  return Buffer.from([...head, ...tail]);
}

function unsigned(value: number): Buffer {
  const bytes: number[] = [];
  for (let rest = value; rest > 0; rest = Math.floor(rest / 256)) bytes.unshift(rest % 256);
  return Buffer.from(bytes);
}

/** A city record in GeoLite2-City's shape (the fields the product reads, and a few it does not). */
export function cityRecord(city: string, country: string, isoCode: string): { [key: string]: MmdbValue } {
  return {
    city: { geoname_id: 2950159, names: { en: city } },
    continent: { code: "EU", names: { en: "Europe" } },
    country: { geoname_id: 2921044, iso_code: isoCode, names: { en: country } },
  };
}
