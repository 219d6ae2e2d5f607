/*
 * test/ct/ct_disasm_planted.c: the negative control of ct_disasm_scan.py.
 * Never linked into libgcm. Built into its own archive under an object name
 * the scanner treats as constant-time C, it holds each construct the
 * scanner must refuse: a division by a data value, a dense switch the
 * compiler turns into a jump table, and a switch it turns into a lookup
 * table (CSWTCH). The ctest entry passes only when the scanner reports all
 * three.
 */
#include <stdint.h>

uint32_t planted_divide(uint32_t secret, uint32_t by);
uint32_t planted_jump_table(uint32_t secret, uint32_t x);
uint32_t planted_lookup(uint32_t secret);

uint32_t planted_divide(uint32_t secret, uint32_t by) { return secret / by; }

uint32_t planted_jump_table(uint32_t secret, uint32_t x) {
  switch (secret & 7) {
    case 0: return x * 3 + 1;
    case 1: return x ^ 0x55;
    case 2: return (x << 3) - x;
    case 3: return x + planted_divide(x, 5);
    case 4: return ~x;
    case 5: return x >> 2;
    case 6: return x * x;
    default: return x - 9;
  }
}

uint32_t planted_lookup(uint32_t secret) {
  switch (secret & 7) {
    case 0: return 0x63;
    case 1: return 0x7c;
    case 2: return 0x77;
    case 3: return 0x7b;
    case 4: return 0xf2;
    case 5: return 0x6b;
    case 6: return 0x6f;
    default: return 0xc5;
  }
}
