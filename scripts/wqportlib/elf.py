# SPDX-License-Identifier: GPL-2.0
"""Just enough ELF to count a module's KUnit suites before it is loaded."""
import struct


def section_size(path, wanted):
    """Size in bytes of section WANTED of the ELF64 file PATH (0 if absent)."""
    with open(path, 'rb') as f:
        data = f.read()
    if data[:4] != b'\x7fELF' or data[4] != 2:
        raise ValueError(f'{path}: not a 64-bit ELF file')
    endian = '<' if data[5] == 1 else '>'
    shoff, = struct.unpack_from(endian + 'Q', data, 0x28)
    shentsize, shnum, shstrndx = struct.unpack_from(endian + 'HHH', data, 0x3a)

    def header(i):
        return struct.unpack_from(endian + 'IIQQQQIIQQ', data, shoff + i * shentsize)

    strtab_off = header(shstrndx)[4]
    for i in range(shnum):
        name_off, _, _, _, _, size = header(i)[:6]
        end = data.index(b'\0', strtab_off + name_off)
        if data[strtab_off + name_off:end].decode() == wanted:
            return size
    return 0


def kunit_suite_count(path):
    """Number of suites a module registers (KUnit and kunit-lite alike)."""
    return section_size(path, '.kunit_test_suites') // 8
