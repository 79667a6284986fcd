import { crc32, deflateRawSync } from 'node:zlib';

/** One file of an archive: stored as is, or deflated (method 8, what Excel and the CMS archives use). */
export interface ZipFileEntry {
  name: string;
  data: Buffer | string;
  store?: boolean;
}

/**
 * A ZIP archive (APPNOTE 6.3: local headers, central directory, end record; no ZIP64, no data
 * descriptors), enough to write `.xlsx` and `.zip` fixtures without a dependency.
 */
export function zipArchive(entries: ZipFileEntry[]): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const entry of entries) {
    const name = Buffer.from(entry.name, 'utf8');
    const data = Buffer.isBuffer(entry.data) ? entry.data : Buffer.from(entry.data, 'utf8');
    const body = entry.store ? data : deflateRawSync(data);
    const method = entry.store ? 0 : 8;
    const crc = crc32(data);
    // Shared by the local and central headers: version needed, flags (bit 11: UTF-8 names), method,
    // time and date (1980-01-01 00:00), CRC-32, sizes, name length, extra length.
    const common = Buffer.alloc(26);
    common.writeUInt16LE(20, 0);
    common.writeUInt16LE(0x0800, 2);
    common.writeUInt16LE(method, 4);
    common.writeUInt16LE(0, 6);
    common.writeUInt16LE((0 << 9) | (1 << 5) | 1, 8);
    common.writeUInt32LE(crc, 10);
    common.writeUInt32LE(body.length, 14);
    common.writeUInt32LE(data.length, 18);
    common.writeUInt16LE(name.length, 22);
    common.writeUInt16LE(0, 24);
    const local = Buffer.concat([signature(0x04034b50), common, name, body]);
    const tail = Buffer.alloc(14); // comment length, disk, internal and external attributes, offset
    tail.writeUInt32LE(offset, 10);
    centrals.push(Buffer.concat([signature(0x02014b50), u16(20), common, tail, name]));
    locals.push(local);
    offset += local.length;
  }
  const directory = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, directory, end]);
}

function signature(value: number): Buffer {
  const buffer = Buffer.alloc(4);
  buffer.writeUInt32LE(value, 0);
  return buffer;
}

function u16(value: number): Buffer {
  const buffer = Buffer.alloc(2);
  buffer.writeUInt16LE(value, 0);
  return buffer;
}
