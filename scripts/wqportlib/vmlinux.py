# SPDX-License-Identifier: GPL-2.0
"""The kernel ELF inside an x86 bzImage, for a boot without its decompressor.

usage: python3 scripts/wqportlib/vmlinux.py BZIMAGE OUT

Under TCG the bzImage's own decompressor is the slowest part of a stock
kernel's boot: Debian's 6.1 image (8 MB of xz) takes 3.1 s of the 5 s from
QEMU's start to the kernel's first line.  The payload is the kernel's ELF
(`vmlinux.bin`), which QEMU boots directly through its PVH entry point
(Xen ELF note 18, CONFIG_PVH): 0.3 s to the first line.  This writes that
ELF to OUT (atomically: a rename) when the image holds one with a PVH entry,
and exits 1 otherwise (the caller boots the bzImage).

The payload is found from the boot protocol's header (2.08 and later):
setup_sects at 0x1f1, payload_offset and payload_length at 0x248; it ends
with the decompressed size (4 bytes, little endian), which checks the
result.  xz and gzip are decompressed here, zstd (Debian's 6.12) by the
zstd command, lz4 by lz4.
"""
import gzip
import lzma
import os
import struct
import subprocess
import sys

# a compressor's magic at the payload's start: its name
MAGIC = ((b'\xfd7zXZ\x00', 'xz'), (b'\x28\xb5\x2f\xfd', 'zstd'), (b'\x1f\x8b', 'gzip'),
         (b'\x02\x21\x4c\x18', 'lz4'))
XEN_ELFNOTE_PHYS32_ENTRY = 18


def payload(image):
    """(compressor, compressed bytes, decompressed size) of IMAGE."""
    if len(image) < 0x250 or image[0x202:0x206] != b'HdrS':
        raise ValueError('not a bzImage (no HdrS header)')
    version = struct.unpack_from('<H', image, 0x206)[0]
    if version < 0x208:
        raise ValueError(f'boot protocol {version >> 8}.{version & 0xff}: no payload fields')
    setup = (image[0x1f1] or 4) + 1
    offset, length = struct.unpack_from('<II', image, 0x248)
    start = setup * 512 + offset
    data = image[start:start + length]
    size = struct.unpack_from('<I', data, len(data) - 4)[0]
    for magic, name in MAGIC:
        if data.startswith(magic):
            return name, data[:-4], size
    raise ValueError(f'payload compressed in an unknown way ({data[:4].hex()})')


def decompress(name, data):
    if name == 'xz':
        return lzma.LZMADecompressor().decompress(data)
    if name == 'gzip':
        return gzip.decompress(data)
    tool = {'zstd': ['zstd', '-dcq'], 'lz4': ['lz4', '-dcq']}[name]
    try:
        return subprocess.run(tool, input=data, stdout=subprocess.PIPE,
                              stderr=subprocess.DEVNULL, check=True).stdout
    except (OSError, subprocess.CalledProcessError) as e:
        raise ValueError(f'{tool[0]}: {e}') from e


def has_pvh_entry(elf):
    """Does the 64-bit ELF ELF carry Xen's PHYS32_ENTRY note?"""
    if elf[:4] != b'\x7fELF' or elf[4] != 2:
        return False
    phoff, = struct.unpack_from('<Q', elf, 0x20)
    phentsize, phnum = struct.unpack_from('<HH', elf, 0x36)
    for i in range(phnum):
        ptype, _, off, _, _, filesz = struct.unpack_from('<IIQQQQ', elf, phoff + i * phentsize)
        if ptype != 4:  # PT_NOTE
            continue
        pos, end = off, off + filesz
        while pos + 12 <= end:
            namesz, descsz, ntype = struct.unpack_from('<III', elf, pos)
            name = elf[pos + 12:pos + 12 + namesz].rstrip(b'\0')
            if name == b'Xen' and ntype == XEN_ELFNOTE_PHYS32_ENTRY:
                return True
            pos += 12 + (namesz + 3) // 4 * 4 + (descsz + 3) // 4 * 4
    return False


def extract(image_path, out):
    """Write IMAGE_PATH's kernel ELF to OUT; ValueError says why not."""
    with open(image_path, 'rb') as f:
        name, data, size = payload(f.read())
    elf = decompress(name, data)
    if len(elf) != size:
        raise ValueError(f'{name} payload: {len(elf)} bytes, the image says {size}')
    if not has_pvh_entry(elf):
        raise ValueError('the kernel has no PVH entry point (CONFIG_PVH)')
    tmp = f'{out}.{os.getpid()}'
    with open(tmp, 'wb') as f:
        f.write(elf)
    os.replace(tmp, out)


def main(argv):
    if len(argv) != 2:
        print(__doc__.split('\n\n')[1], file=sys.stderr)
        return 2
    try:
        extract(argv[0], argv[1])
    except (OSError, ValueError, struct.error) as e:
        print(f'vmlinux: {argv[0]}: {e}', file=sys.stderr)
        return 1
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
