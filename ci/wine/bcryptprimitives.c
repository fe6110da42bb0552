/* bcryptprimitives.dll for Wine 8, which has none: ProcessPrng, the entropy source of Rust's
 * standard library and getrandom on Windows 10+, over advapi32's RtlGenRandom
 * (SystemFunction036), which Wine has. Only for running the Windows build under Wine
 * (ci/platform-windows); never shipped. */
#include <windows.h>

BOOLEAN WINAPI SystemFunction036(PVOID buffer, ULONG length);

__declspec(dllexport) BOOL WINAPI ProcessPrng(PBYTE data, SIZE_T length)
{
    while (length > 0) {
        ULONG chunk = length > 0x10000000 ? 0x10000000 : (ULONG)length;
        if (!SystemFunction036(data, chunk))
            return FALSE;
        data += chunk;
        length -= chunk;
    }
    return TRUE;
}
