#!/usr/bin/env python3
"""Writes the NuGet package of bindings/dotnet (`make dist`), byte for byte the same from the same
sources and SOURCE_DATE_EPOCH.

    pack.py NUSPEC DLL OUT_DIR

This machine has no dotnet SDK (and no NuGet feed); mcs builds Paywire.dll, and this writes the
.nupkg as `nuget pack` lays it out (an Open Packaging Conventions zip: the .nuspec,
lib/net45/Paywire.dll, [Content_Types].xml, _rels/.rels and the core properties), which
`nuget install` from a folder feed reads (make dist-check). mcs has no deterministic mode: the
assembly's build time and its module id (MVID, a random GUID) are the only bytes that differ
between two builds, so the copy packed here gets SOURCE_DATE_EPOCH as its time and an MVID
derived from its own contents.
"""
import hashlib
import os
import re
import struct
import sys
import zipfile
from pathlib import Path

NS_RELS = "http://schemas.openxmlformats.org/package/2006/relationships"


def sections(data, pe):
    optional = pe + 24
    count = struct.unpack_from("<H", data, pe + 6)[0]
    table = optional + struct.unpack_from("<H", data, pe + 20)[0]
    return [struct.unpack_from("<IIII", data, table + 40 * i + 8) for i in range(count)]


def offset_of(data, pe, rva):
    for size, address, raw_size, raw_pointer in sections(data, pe):
        if address <= rva < address + max(size, raw_size):
            return rva - address + raw_pointer
    raise ValueError(f"RVA {rva:#x} is in no section")


def normalized_assembly(data, epoch):
    """The assembly with its COFF time set to epoch and its MVID a hash of everything else."""
    data = bytearray(data)
    pe = struct.unpack_from("<I", data, 0x3C)[0]
    if data[pe:pe + 4] != b"PE\0\0":
        raise ValueError("not a PE file")
    struct.pack_into("<I", data, pe + 8, epoch & 0xFFFFFFFF)
    optional = pe + 24
    directories = optional + (96 if struct.unpack_from("<H", data, optional)[0] == 0x10B else 112)
    cli = offset_of(data, pe, struct.unpack_from("<I", data, directories + 14 * 8)[0])
    metadata = offset_of(data, pe, struct.unpack_from("<I", data, cli + 8)[0])
    if struct.unpack_from("<I", data, metadata)[0] != 0x424A5342:
        raise ValueError("no CLI metadata")
    length = struct.unpack_from("<I", data, metadata + 12)[0]
    cursor = metadata + 16 + length + 2
    streams = struct.unpack_from("<H", data, cursor)[0]
    cursor += 2
    guid = None
    for _ in range(streams):
        stream_offset, size = struct.unpack_from("<II", data, cursor)
        end = data.index(b"\0", cursor + 8)
        name = data[cursor + 8:end].decode("ascii")
        cursor = (end + 4) & ~3
        if name == "#GUID":
            guid = metadata + stream_offset
    if guid is None:
        raise ValueError("no #GUID stream")
    # The module's MVID is the first GUID of the heap (mcs writes no other).
    data[guid:guid + 16] = bytes(16)
    data[guid:guid + 16] = hashlib.sha256(bytes(data)).digest()[:16]
    return bytes(data)


def main():
    nuspec_path, dll_path, out_dir = Path(sys.argv[1]), Path(sys.argv[2]), Path(sys.argv[3])
    epoch = int(os.environ.get("SOURCE_DATE_EPOCH", "315532800"))
    nuspec = nuspec_path.read_text(encoding="utf-8")
    package_id = re.search(r"<id>([^<]+)</id>", nuspec).group(1)
    version = re.search(r"<version>([^<]+)</version>", nuspec).group(1)
    description = re.search(r"<description>([^<]+)</description>", nuspec).group(1)
    properties = f"package/services/metadata/core-properties/{hashlib.sha256(nuspec.encode()).hexdigest()[:32]}.psmdcp"
    entries = {
        "_rels/.rels": (
            '<?xml version="1.0" encoding="utf-8"?>\n'
            f'<Relationships xmlns="{NS_RELS}">\n'
            f'  <Relationship Type="http://schemas.microsoft.com/packaging/2010/07/manifest" Target="/{package_id}.nuspec" Id="R1" />\n'
            f'  <Relationship Type="http://schemas.openxmlformats.org/package/2006/relationships/metadata/core-properties" Target="/{properties}" Id="R2" />\n'
            '</Relationships>\n').encode(),
        f"{package_id}.nuspec": nuspec.encode(),
        f"lib/net45/{dll_path.name}": normalized_assembly(dll_path.read_bytes(), epoch),
        properties: (
            '<?xml version="1.0" encoding="utf-8"?>\n'
            '<coreProperties xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:dcterms="http://purl.org/dc/terms/" '
            'xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" '
            'xmlns="http://schemas.openxmlformats.org/package/2006/metadata/core-properties">'
            f'<dc:creator>Paywire</dc:creator><dc:description>{description}</dc:description>'
            f'<dc:identifier>{package_id}</dc:identifier><version>{version}</version><keywords></keywords>'
            '<lastModifiedBy>make dist</lastModifiedBy></coreProperties>\n').encode(),
        "[Content_Types].xml": (
            '<?xml version="1.0" encoding="utf-8"?>\n'
            '<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">'
            '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml" />'
            '<Default Extension="nuspec" ContentType="application/octet" />'
            '<Default Extension="dll" ContentType="application/octet" />'
            '<Default Extension="psmdcp" ContentType="application/vnd.openxmlformats-package.core-properties+xml" />'
            '</Types>\n').encode(),
    }
    stamp = max(epoch, 315532800)   # zip dates start in 1980
    import time
    date_time = time.gmtime(stamp)[:6]
    out = out_dir / f"{package_id}.{version}.nupkg"
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as archive:
        for name in entries:
            info = zipfile.ZipInfo(name, date_time)
            info.compress_type = zipfile.ZIP_DEFLATED
            info.external_attr = 0o644 << 16
            archive.writestr(info, entries[name])
    print(out)


if __name__ == "__main__":
    main()
