// Reads an executable's header: its format (ELF, Mach-O, PE), the operating
// system it is for and its machine, so a package's server is known to be the
// binary for its target and not only a file with the right name.
//
// The constants, from the formats' definitions (the same values as Go's
// debug/elf, debug/macho and debug/pe packages):
//   ELF: https://refspecs.linuxfoundation.org/elf/gabi4+/ch4.eheader.html
//        e_machine EM_X86_64 = 62, EM_AARCH64 = 183; EI_OSABI 0 (System V,
//        what Go writes for Linux) or 3 (GNU/Linux)
//   Mach-O: https://github.com/apple-oss-distributions/xnu/blob/main/EXTERNAL_HEADERS/mach-o/loader.h
//        MH_MAGIC_64 = 0xfeedfacf, MH_EXECUTE = 2;
//        CPU_TYPE_X86_64 = 0x01000007, CPU_TYPE_ARM64 = 0x0100000c (mach/machine.h)
//   PE: https://learn.microsoft.com/en-us/windows/win32/debug/pe-format
//        "MZ", e_lfanew at 0x3c, "PE\0\0"; Machine IMAGE_FILE_MACHINE_AMD64 =
//        0x8664, IMAGE_FILE_MACHINE_ARM64 = 0xaa64; optional header magic
//        PE32+ = 0x20b; Subsystem IMAGE_SUBSYSTEM_WINDOWS_CUI = 3 (console)

const ELF_MACHINES = { 62: 'x64', 183: 'arm64', 3: 'ia32', 40: 'arm' };
const MACHO_CPUS = { 0x01000007: 'x64', 0x0100000c: 'arm64' };
const PE_MACHINES = { 0x8664: 'x64', 0xaa64: 'arm64', 0x14c: 'ia32', 0x1c4: 'arm' };

/**
 * @param {Buffer} buf the file, or at least its first few kilobytes
 * @returns {{format: 'elf'|'macho'|'pe', os: string, arch: string, bits: number, detail: string} | {error: string}}
 */
export function inspectBinary(buf) {
  if (buf.length < 64) {
    return { error: `${buf.length} bytes, too short for an executable header` };
  }
  if (buf.readUInt32BE(0) === 0x7f454c46) {
    const bits = { 1: 32, 2: 64 }[buf[4]];
    if (buf[5] !== 1) return { error: 'ELF, but not little-endian' };
    const osabi = buf[7];
    const type = buf.readUInt16LE(16);
    const machine = buf.readUInt16LE(18);
    const arch = ELF_MACHINES[machine] ?? `e_machine ${machine}`;
    const os = osabi === 0 || osabi === 3 ? 'linux' : `EI_OSABI ${osabi}`;
    if (type !== 2 && type !== 3) return { error: `ELF, but e_type ${type} is not an executable` };
    return { format: 'elf', os, arch, bits, detail: `ELF ${bits}-bit, ${os}, ${arch}` };
  }
  const magic = buf.readUInt32LE(0);
  if (magic === 0xfeedfacf) {
    const cpu = buf.readUInt32LE(4);
    const filetype = buf.readUInt32LE(12);
    const arch = MACHO_CPUS[cpu] ?? `cputype 0x${cpu.toString(16)}`;
    if (filetype !== 2) return { error: `Mach-O, but filetype ${filetype} is not MH_EXECUTE` };
    return { format: 'macho', os: 'darwin', arch, bits: 64, detail: `Mach-O 64-bit executable, ${arch}` };
  }
  if (magic === 0xfeedface || buf.readUInt32BE(0) === 0xcafebabe) {
    return { error: 'a 32-bit or fat Mach-O, not the thin 64-bit executable Go builds' };
  }
  if (buf.toString('latin1', 0, 2) === 'MZ') {
    const pe = buf.readUInt32LE(0x3c);
    if (pe + 24 + 70 > buf.length || buf.toString('latin1', pe, pe + 4) !== 'PE\0\0') {
      return { error: 'MZ header without a PE signature' };
    }
    const machine = buf.readUInt16LE(pe + 4);
    const characteristics = buf.readUInt16LE(pe + 22);
    const opt = pe + 24;
    const optMagic = buf.readUInt16LE(opt);
    const subsystem = buf.readUInt16LE(opt + 68);
    const arch = PE_MACHINES[machine] ?? `Machine 0x${machine.toString(16)}`;
    if ((characteristics & 0x2) === 0) return { error: 'PE, but not IMAGE_FILE_EXECUTABLE_IMAGE' };
    if (subsystem !== 3) return { error: `PE, but subsystem ${subsystem} is not the console (3)` };
    const bits = optMagic === 0x20b ? 64 : 32;
    return { format: 'pe', os: 'win32', arch, bits, detail: `PE32${bits === 64 ? '+' : ''} console executable, ${arch}` };
  }
  return { error: `unknown executable format (first bytes ${buf.subarray(0, 4).toString('hex')})` };
}

/**
 * Whether a binary's header fits a vsce target (linux-x64, darwin-arm64,
 * win32-x64, ...): returns the problem, or undefined when it fits.
 */
export function mismatch(buf, want) {
  const got = inspectBinary(buf);
  if ('error' in got) return got.error;
  const os = { elf: 'linux', macho: 'darwin', pe: 'win32' }[want.format];
  if (got.format !== want.format || got.os !== os || got.arch !== want.arch || got.bits !== 64) {
    return `${got.detail}, want ${want.format === 'elf' ? 'ELF' : want.format === 'macho' ? 'Mach-O' : 'PE'} 64-bit for ${os}-${want.arch}`;
  }
  return undefined;
}
