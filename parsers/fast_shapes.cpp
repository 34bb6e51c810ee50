#include "parsers/fast_shapes.h"

#include <array>
#include <bit>
#include <cstdint>
#include <cstring>
#include <optional>

#include "parsers/char_classes.h"
#include "parsers/nccl_patterns.h"
#include "parsers/simd.h"
#include "parsers/swar.h"
#include "src/util/text.h"

namespace nd {
namespace {


// A cursor over the message; every step either consumes what it expects or
// fails, like the regular expression it mirrors.
class Cursor {
 public:
  explicit Cursor(std::string_view s) : s_(s) {}
  bool literal(std::string_view lit) {
    if (s_.substr(pos_, lit.size()) != lit) return false;
    pos_ += lit.size();
    return true;
  }
  bool peek(char c) const { return pos_ < s_.size() && s_[pos_] == c; }
  // One or more characters of a class.
  template <typename Pred>
  bool span(Pred pred, std::string_view& out) {
    size_t start = pos_;
    while (pos_ < s_.size() && pred(s_[pos_])) ++pos_;
    out = s_.substr(start, pos_ - start);
    return pos_ > start;
  }
  // `(?:\[([0-9a-fA-F]+)\])?`
  bool optional_bracket(std::string_view& out) {
    if (!peek('[')) return true;
    size_t save = pos_;
    ++pos_;
    if (span(is_hex, out) && literal("]")) return true;
    pos_ = save;
    out = {};
    return true;
  }
  // `-?\d+`: a sign is only taken before digits.
  bool signed_digits(std::string_view& out) {
    size_t start = pos_;
    if (peek('-')) ++pos_;
    std::string_view digits;
    if (!span(is_digit, digits)) {
      pos_ = start;
      return false;
    }
    out = since(start);
    return true;
  }
  // Zero or more characters of a class.
  template <typename Pred>
  void skip(Pred pred) {
    while (pos_ < s_.size() && pred(s_[pos_])) ++pos_;
  }
  // `\s*$`
  bool only_space_left() const {
    for (size_t i = pos_; i < s_.size(); ++i) {
      if (!is_re2_space(s_[i])) return false;
    }
    return true;
  }
  std::string_view since(size_t start) const { return s_.substr(start, pos_ - start); }
  std::string_view rest() const { return s_.substr(pos_); }
  size_t pos() const { return pos_; }
  // Steps back to a position taken from pos(), where an optional part failed.
  void seek(size_t pos) { pos_ = pos; }

 private:
  std::string_view s_;
  size_t pos_ = 0;
};

}  // namespace

size_t find_nccl_word(std::string_view s, size_t from) {
  constexpr std::string_view kWord = " NCCL ";
  size_t pos = from + 1;  // the 'N' of a match at `from`
  while (pos + kWord.size() - 1 <= s.size()) {
    const void* hit = std::memchr(s.data() + pos, 'N', s.size() - pos);
    if (!hit) return std::string_view::npos;
    size_t n = static_cast<size_t>(static_cast<const char*>(hit) - s.data());
    if (n + kWord.size() - 1 > s.size()) return std::string_view::npos;
    if (s[n - 1] == ' ' && std::memcmp(s.data() + n, "NCCL ", 5) == 0) return n - 1;
    pos = n + 1;
  }
  return std::string_view::npos;
}

namespace {

uint64_t low_bits(size_t n) { return n >= 64 ? ~uint64_t{0} : (uint64_t{1} << n) - 1; }

// p[0, N - 1) == lit, for a literal of 8 to 16 bytes: two word loads, the
// second overlapping the first. For such a length GCC calls glibc's memcmp,
// which cost a per-operation line about 20 of its 700 instructions.
template <size_t N>
bool equals_literal(const char* p, const char (&lit)[N]) {
  constexpr size_t n = N - 1;
  static_assert(n >= 8 && n <= 16);
  uint64_t head, lit_head, tail, lit_tail;
  std::memcpy(&head, p, 8);
  std::memcpy(&lit_head, lit, 8);
  std::memcpy(&tail, p + n - 8, 8);
  std::memcpy(&lit_tail, lit + n - 8, 8);
  return head == lit_head && tail == lit_tail;
}

// Bit i of each mask tells whether p[i] is a digit, a colon, a letter, for
// the 64 bytes from p.
struct ByteClasses {
  uint64_t digit = 0, colon = 0, alpha = 0;
};

// Any machine, eight bytes in a 64-bit register at a time.
ByteClasses classify_64_scalar(const char* p) {
  using namespace swar;
  ByteClasses c;
  for (unsigned part = 0; part < 8; ++part) {
    uint64_t x = load(p + part * 8);
    c.digit |= gather_high_bits(bytes_between(x, '0' - 1, '9' + 1)) << (part * 8);
    c.colon |= gather_high_bits(zero_bytes(x ^ (kOnes * ':'))) << (part * 8);
    c.alpha |= gather_high_bits(bytes_between(x | (kOnes * 0x20), 'a' - 1, 'z' + 1)) << (part * 8);
  }
  return c;
}

#ifdef ND_HAVE_SSE2
ByteClasses classify_64_sse2(const char* p) {
  ByteClasses c;
  const __m128i zero = _mm_set1_epi8('0'), nine = _mm_set1_epi8(9), colon = _mm_set1_epi8(':');
  const __m128i lower = _mm_set1_epi8(0x20), a = _mm_set1_epi8('a'), z = _mm_set1_epi8(25);
  for (int part = 0; part < 4; ++part) {
    __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p + part * 16));
    __m128i d = _mm_sub_epi8(v, zero);
    __m128i l = _mm_sub_epi8(_mm_or_si128(v, lower), a);
    auto bits = [](__m128i m) { return static_cast<uint64_t>(static_cast<uint16_t>(_mm_movemask_epi8(m))); };
    c.digit |= bits(_mm_cmpeq_epi8(_mm_min_epu8(d, nine), d)) << (part * 16);
    c.colon |= bits(_mm_cmpeq_epi8(v, colon)) << (part * 16);
    c.alpha |= bits(_mm_cmpeq_epi8(_mm_min_epu8(l, z), l)) << (part * 16);
  }
  return c;
}
#endif

#ifdef ND_HAVE_NEON
ByteClasses classify_64_neon(const char* p) {
  const uint8x16_t zero = vdupq_n_u8('0'), nine = vdupq_n_u8(9), colon = vdupq_n_u8(':');
  const uint8x16_t lower = vdupq_n_u8(0x20), a = vdupq_n_u8('a'), z = vdupq_n_u8(25);
  const auto* q = reinterpret_cast<const uint8_t*>(p);
  const uint8x16_t v0 = vld1q_u8(q), v1 = vld1q_u8(q + 16), v2 = vld1q_u8(q + 32), v3 = vld1q_u8(q + 48);
  // Straight-line, as arrays indexed in a loop went through the stack at -O2.
  auto digit = [&](uint8x16_t v) { return vcleq_u8(vsubq_u8(v, zero), nine); };
  auto letter = [&](uint8x16_t v) { return vcleq_u8(vsubq_u8(vorrq_u8(v, lower), a), z); };
  ByteClasses c;
  c.digit = movemask_neon(digit(v0), digit(v1), digit(v2), digit(v3));
  c.colon = movemask_neon(vceqq_u8(v0, colon), vceqq_u8(v1, colon), vceqq_u8(v2, colon), vceqq_u8(v3, colon));
  c.alpha = movemask_neon(letter(v0), letter(v1), letter(v2), letter(v3));
  return c;
}
#endif

#ifdef ND_HAVE_AVX2
// Half the instructions of the SSE2 version: this runs once per COLL line.
__attribute__((target("avx2"))) ByteClasses classify_64_avx2(const char* p) {
  const __m256i zero = _mm256_set1_epi8('0'), nine = _mm256_set1_epi8(9), colon = _mm256_set1_epi8(':');
  const __m256i lower = _mm256_set1_epi8(0x20), a = _mm256_set1_epi8('a'), z = _mm256_set1_epi8(25);
  ByteClasses c;
  for (int part = 0; part < 2; ++part) {
    __m256i v = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p + part * 32));
    __m256i d = _mm256_sub_epi8(v, zero);
    __m256i l = _mm256_sub_epi8(_mm256_or_si256(v, lower), a);
    c.digit |= movemask_avx2(_mm256_cmpeq_epi8(_mm256_min_epu8(d, nine), d)) << (part * 32);
    c.colon |= movemask_avx2(_mm256_cmpeq_epi8(v, colon)) << (part * 32);
    c.alpha |= movemask_avx2(_mm256_cmpeq_epi8(_mm256_min_epu8(l, z), l)) << (part * 32);
  }
  return c;
}
#endif

ByteClasses classify_64(const char* p) {
  using Classify64 = ByteClasses (*)(const char*);
  // Chosen once, on first use (not at load time: no order of initialisation to get wrong).
  static const Classify64 fn = [] {
#ifdef ND_HAVE_AVX2
    if (use_avx2()) return classify_64_avx2;
#endif
#ifdef ND_HAVE_SSE2
    if (use_sse2()) return classify_64_sse2;
#endif
#ifdef ND_HAVE_NEON
    if (use_neon()) return classify_64_neon;
#endif
    return classify_64_scalar;
  }();
  return fn(p);
}

// The first set bit of `mask` at or above `from` (64 when none).
size_t next_bit(uint64_t mask, size_t from) {
  if (from >= 64) return 64;
  uint64_t m = mask & ~low_bits(from);
  return m == 0 ? 64 : static_cast<size_t>(std::countr_zero(m));
}

}  // namespace

bool is_per_operation(std::string_view m) {
  constexpr std::string_view kBytes = " Bytes -> Algo ";
  size_t p = 0;
  while (p < m.size() && is_alpha(m[p])) ++p;
  if (p > 0) {
    if (p + 2 > m.size() || m[p] != ':' || m[p + 1] != ' ') return false;
    p += 2;
    if (p + 8 <= m.size() && m[p] == 'o' && std::memcmp(m.data() + p, "opCount ", 8) == 0) return true;
  }
  size_t digits = p;
  while (p < m.size() && is_digit(m[p])) ++p;
  return p > digits && m.size() >= p + kBytes.size() && std::memcmp(m.data() + p, kBytes.data(), kBytes.size()) == 0;
}

namespace {

// Steps back over decimal digits ending just before `end`; npos when none.
size_t digits_before(std::string_view s, size_t end) {
  size_t i = end;
  while (i > 0 && is_digit(s[i - 1])) --i;
  return i == end ? std::string_view::npos : i;
}


}  // namespace

std::optional<std::string_view> per_operation_host(std::string_view text, size_t marker) {
  std::optional<bool> per_operation;
  return per_operation_host(text, marker, per_operation);
}

std::optional<std::string_view> per_operation_host(std::string_view text, size_t marker,
                                                   std::optional<bool>& per_operation) {
  if (marker + 11 > text.size() || std::memcmp(text.data() + marker + 6, "INFO ", 5) != 0) return std::nullopt;
  per_operation = is_per_operation(text.substr(marker + 11));
  if (!*per_operation) return std::nullopt;
  // host:pid:tid [dev], read backwards from the marker.
  if (marker < 2 || text[marker - 1] != ']') return std::nullopt;
  size_t dev = digits_before(text, marker - 1);
  if (dev == std::string_view::npos || dev < 2 || text[dev - 1] != '[' || text[dev - 2] != ' ') return std::nullopt;
  size_t tid = digits_before(text, dev - 2);
  if (tid == std::string_view::npos || tid < 1 || text[tid - 1] != ':') return std::nullopt;
  size_t pid = digits_before(text, tid - 1);
  if (pid == std::string_view::npos || pid < 2 || text[pid - 1] != ':') return std::nullopt;
  size_t host_start = pid - 1;
  while (host_start > 0 && is_name_char(text[host_start - 1])) --host_start;
  if (host_start == pid - 1) return std::nullopt;
  return text.substr(host_start, pid - 1 - host_start);
}

size_t leading_per_operation_host(std::string_view text, size_t marker) {
  if (text.size() < 64 || marker >= 64 || marker + 11 > text.size()) return 0;
  const char* p = text.data();
  if (std::memcmp(p + marker + 6, "INFO ", 5) != 0) return 0;
  ByteClasses c = classify_64(p);
  // `Name: opCount `, the collective's name inside the same 64 bytes: first,
  // since a setup line fails here.
  size_t name = marker + 11;
  size_t name_end = next_bit(~c.alpha, name);
  if (name_end == name || name_end >= 64 || name_end + 10 > text.size() ||
      !equals_literal(p + name_end, ": opCount ")) {
    return 0;
  }
  size_t host_end = next_bit(c.colon, 0);
  size_t pid_end = next_bit(c.colon, host_end + 1);
  size_t tid_end = next_bit(~c.digit, pid_end + 1);
  size_t dev_end = tid_end + 2 < 64 ? next_bit(~c.digit, tid_end + 2) : 64;
  // host:pid:tid [dev] with each number non-empty, ending at the marker.
  if (host_end == 0 || dev_end != marker - 1 || p[dev_end] != ']') return 0;
  if (pid_end <= host_end + 1 || (~c.digit & low_bits(pid_end) & ~low_bits(host_end + 1)) != 0) return 0;
  if (tid_end <= pid_end + 1 || p[tid_end] != ' ' || p[tid_end + 1] != '[' || dev_end <= tid_end + 2) return 0;
  // Letters and digits from the masks; '-', '.' and '_' byte by byte.
  uint64_t odd = ~(c.alpha | c.digit) & low_bits(host_end);
  for (; odd != 0; odd &= odd - 1) {
    char ch = p[std::countr_zero(odd)];
    if (ch != '-' && ch != '.' && ch != '_') return 0;
  }
  return host_end;
}

size_t plain_ompi_tag_length(std::string_view line) {
  auto digits_from = [&](size_t p) {
    size_t start = p;
    while (p < line.size() && is_digit(line[p])) ++p;
    return p - start;
  };
  if (line.size() < 16 || line[0] != '[') return 0;
  size_t job = digits_from(1);
  if (job == 0 || 1 + job >= line.size() || line[1 + job] != ',') return 0;
  size_t rank_at = 2 + job;
  size_t rank = digits_from(rank_at);
  // Up to 9 digits: every such rank fits the general reader's uint32_t.
  size_t p = rank_at + rank;
  if (rank == 0 || rank > 9 || p >= line.size() || line[p] != ']') return 0;
  ++p;
  std::string_view rest = line.substr(p);
  if (!rest.starts_with("<stdout>:") && !rest.starts_with("<stderr>:")) return 0;
  p += 9;
  return p < line.size() && line[p] == ' ' ? p + 1 : p;
}

uint32_t plain_ompi_tag_rank(std::string_view line) {
  // `[job,rank]`: the shape is known, so the digits end at the ']' (one pass
  // finds the end and the value; at most 9 digits cannot overflow).
  uint32_t value = 0;
  for (size_t i = line.find(',') + 1; is_digit(line[i]); ++i) value = value * 10 + static_cast<uint32_t>(line[i] - '0');
  return value;
}

bool has_control_or_cr(std::string_view s) {
  // Sixteen bytes at a time with the compiler's vector extension.
  using V = unsigned char __attribute__((vector_size(16)));
  size_t i = 0;
  for (; i + 16 <= s.size(); i += 16) {
    V v;
    std::memcpy(&v, s.data() + i, 16);
    auto hit = (v == 0x1b) | (v == 0) | (v == '\r');
    uint64_t lanes[2];
    std::memcpy(lanes, &hit, 16);
    if (lanes[0] | lanes[1]) return true;
  }
  for (; i < s.size(); ++i) {
    char c = s[i];
    if (c == 0x1b || c == 0 || c == '\r') return true;
  }
  return false;
}

bool match_connection(std::string_view message, ConnectionCaptures& out) {
  out = {};
  Cursor c(message);
  if (c.literal("Ring ")) {
    out.keyword = message.substr(0, 4);
  } else if (c.literal("Channel ")) {
    out.keyword = message.substr(0, 7);
  } else {
    return false;
  }
  if (!c.span(is_digit, out.channel)) return false;
  if (c.peek('/')) {
    c.literal("/");
    if (!c.span(is_digit, out.conn)) return false;
  }
  if (!c.literal(" : ") || !c.span(is_digit, out.sender)) return false;
  c.optional_bracket(out.sender_bracket);
  if (!c.literal(" -> ") || !c.span(is_digit, out.receiver)) return false;
  c.optional_bracket(out.receiver_bracket);
  if (!c.literal(" ")) return false;
  size_t at = c.pos();
  if (c.literal("[send] ")) {
    out.direction = message.substr(at + 1, 4);
  } else if (c.literal("[receive] ")) {
    out.direction = message.substr(at + 1, 7);
  }
  if (!c.literal("via ")) return false;
  // `(.+?)\s*$`: at least one byte, trailing whitespace trimmed, and no
  // newline left inside (`.` does not match it).
  std::string_view rest = c.rest();
  if (rest.empty()) return false;
  size_t end = rest.size();
  while (end > 0 && is_re2_space(rest[end - 1])) --end;
  if (end == 0) end = 1;
  std::string_view transport = rest.substr(0, end);
  if (transport.find('\n') != std::string_view::npos) return false;
  out.transport = transport;
  return true;
}

bool match_connection_re2(std::string_view message, ConnectionCaptures& out) {
  out = {};
  re2::StringPiece g[9];
  if (!RE2::FullMatch(re2::StringPiece(message.data(), message.size()), pattern(PatternKind::Connection), &g[0],
                      &g[1], &g[2], &g[3], &g[4], &g[5], &g[6], &g[7], &g[8])) {
    return false;
  }
  std::string_view* fields[9] = {&out.keyword,  &out.channel,          &out.conn,      &out.sender, &out.sender_bracket,
                                 &out.receiver, &out.receiver_bracket, &out.direction, &out.transport};
  for (int i = 0; i < 9; ++i) *fields[i] = std::string_view(g[i].data(), g[i].size());
  return true;
}

}  // namespace nd

namespace nd {
namespace {

bool is_word(char c) { return is_alpha(c) || is_digit(c) || c == '_'; }

// The init shape after `cudaDev D`: optional ` key value` fields in a fixed
// order, then ` ?- Init (START|COMPLETE)`. Mirrors the regular expression's
// backtracking: each field is tried taken first, then skipped.
class InitTail {
 public:
  InitTail(std::string_view s, InitCaptures& out) : s_(s), out_(out) {}

  bool from(size_t pos, size_t field) {
    if (field == kFields.size()) return ending(pos);
    const Field& f = kFields[field];
    if (s_.substr(pos, f.key.size()) == f.key) {
      size_t at = pos + f.key.size();
      if (f.value == Value::Token) {
        // `\S+`, longest first: a shorter one can only be followed by `- Init`.
        size_t end = at;
        while (end < s_.size() && !is_re2_space(s_[end])) ++end;
        for (size_t e = end; e > at; --e) {
          if ((e == end || s_[e] == '-') && from(e, field + 1)) return true;
        }
      } else if (size_t end = value_end(at, f.value); end != npos && s_.substr(end, f.suffix.size()) == f.suffix) {
        std::string_view* capture = f.capture ? &(out_.*f.capture) : nullptr;
        if (capture) *capture = s_.substr(at, end - at);
        if (from(end + f.suffix.size(), field + 1)) return true;
        if (capture) *capture = {};
      }
    }
    return from(pos, field + 1);
  }

 private:
  static constexpr size_t npos = std::string_view::npos;
  enum class Value { SignedNumber, Hex, Token };
  struct Field {
    std::string_view key;
    Value value;
    std::string_view suffix;
    std::string_view InitCaptures::*capture;
  };
  static constexpr std::array<Field, 12> kFields = {{
      {" nvmlDev ", Value::SignedNumber, "", &InitCaptures::nvml_dev},
      {" busId ", Value::Hex, "", &InitCaptures::bus_id},
      {" localSize ", Value::SignedNumber, "", nullptr},
      {" used ", Value::SignedNumber, " bytes", nullptr},
      {" parent ", Value::Token, "", nullptr},
      {" splitCount ", Value::SignedNumber, "", nullptr},
      {" childCount ", Value::SignedNumber, "", nullptr},
      {" color ", Value::SignedNumber, "", nullptr},
      {" key ", Value::SignedNumber, "", nullptr},
      {" commId 0x", Value::Hex, "", &InitCaptures::comm_id},
      {" localSize ", Value::SignedNumber, "", nullptr},
      {" used ", Value::SignedNumber, " bytes", nullptr},
  }};
  // `-?\d+` or `[0-9a-fA-F]+` from `at`: where it ends, npos when empty.
  size_t value_end(size_t at, Value v) const {
    size_t i = at;
    if (v == Value::SignedNumber && i < s_.size() && s_[i] == '-') ++i;
    size_t digits = i;
    while (i < s_.size() && (v == Value::Hex ? is_hex(s_[i]) : is_digit(s_[i]))) ++i;
    return i > digits ? i : npos;
  }
  bool ending(size_t pos) {
    if (pos < s_.size() && s_[pos] == ' ') ++pos;
    if (s_.substr(pos, 7) != "- Init ") return false;
    std::string_view phase = s_.substr(pos + 7);
    for (std::string_view p : {std::string_view("START"), std::string_view("COMPLETE")}) {
      if (phase.starts_with(p)) {
        out_.phase = phase.substr(0, p.size());
        return true;
      }
    }
    return false;
  }

  std::string_view s_;
  InitCaptures& out_;
};

// `comm (\S+) rank (\d+) nranks (\d+) cudaDev (-?\d+)` and the tail, from `pos`.
bool init_from(std::string_view s, size_t pos, InitCaptures& out) {
  Cursor c(s.substr(pos));
  std::string_view rank, nranks, dev;
  if (!c.literal("comm ") || !c.span([](char ch) { return !is_re2_space(ch); }, out.comm)) return false;
  if (!c.literal(" rank ") || !c.span(is_digit, rank)) return false;
  if (!c.literal(" nranks ") || !c.span(is_digit, nranks) || !c.literal(" cudaDev ")) return false;
  size_t dev_start = c.pos();
  c.literal("-");
  if (!c.span(is_digit, dev)) return false;
  out.rank = rank;
  out.nranks = nranks;
  out.cuda_dev = s.substr(pos + dev_start, c.pos() - dev_start);
  return InitTail(s, out).from(pos + c.pos(), 0);
}

}  // namespace

bool match_init(std::string_view message, InitCaptures& out) {
  out = {};
  size_t pos = 0;
  // `(?:\[Rank \d+\] )?`
  if (message.starts_with("[Rank ")) {
    size_t i = 6;
    while (i < message.size() && is_digit(message[i])) ++i;
    if (i > 6 && message.substr(i, 2) == "] ") pos = i + 2;
  }
  // `(?:(\w+) )?`: the API's name, taken when what follows still matches.
  size_t word = pos;
  while (word < message.size() && is_word(message[word])) ++word;
  if (word > pos && word < message.size() && message[word] == ' ') {
    if (init_from(message, word + 1, out)) {
      out.api = message.substr(pos, word - pos);
      return true;
    }
    out = {};
  }
  if (init_from(message, pos, out)) return true;
  out = {};
  return false;
}

bool match_net_using(std::string_view message, std::string_view& name, std::string_view& list) {
  name = list = {};
  if (!message.starts_with("NET/")) return false;
  // `(\S+) ?: Using(.*)$`: the name is the whole word before " : Using", or,
  // when the word ends in ':', the word without it before " Using".
  size_t end = 4;
  while (end < message.size() && !is_re2_space(message[end])) ++end;
  std::string_view word = message.substr(4, end - 4);
  std::string_view after = message.substr(end);
  size_t rest;
  if (!word.empty() && after.starts_with(" : Using")) {
    rest = end + 8;
  } else if (word.size() >= 2 && word.back() == ':' && after.starts_with(" Using")) {
    word.remove_suffix(1);
    rest = end + 6;
  } else {
    return false;
  }
  // `.` does not match a newline.
  if (message.find('\n', rest) != std::string_view::npos) return false;
  name = word;
  list = message.substr(rest);
  return true;
}

bool match_using_network(std::string_view message, std::string_view& name) {
  name = {};
  constexpr std::string_view kPrefix = "Using network ";
  if (!message.starts_with(kPrefix)) return false;
  // `(.+?)\s*$` as in match_connection: at least one byte, trailing
  // whitespace trimmed, no newline inside.
  std::string_view rest = message.substr(kPrefix.size());
  if (rest.empty()) return false;
  size_t end = rest.size();
  while (end > 0 && is_re2_space(rest[end - 1])) --end;
  if (end == 0) end = 1;
  if (rest.substr(0, end).find('\n') != std::string_view::npos) return false;
  name = rest.substr(0, end);
  return true;
}

bool match_init_re2(std::string_view message, InitCaptures& out) {
  out = {};
  re2::StringPiece g[9];
  if (!RE2::PartialMatch(re2::StringPiece(message.data(), message.size()), pattern(PatternKind::Init), &g[0], &g[1],
                         &g[2], &g[3], &g[4], &g[5], &g[6], &g[7], &g[8])) {
    return false;
  }
  std::string_view* fields[9] = {&out.api,      &out.comm,   &out.rank,    &out.nranks, &out.cuda_dev,
                                 &out.nvml_dev, &out.bus_id, &out.comm_id, &out.phase};
  for (int i = 0; i < 9; ++i) *fields[i] = std::string_view(g[i].data(), g[i].size());
  return true;
}

}  // namespace nd

namespace nd {
namespace {

bool is_space_char(char c) { return c == ' '; }
bool is_not_re2_space(char c) { return !is_re2_space(c); }

}  // namespace

bool match_version(std::string_view m, std::string_view& version, std::string_view& cuda) {
  version = cuda = {};
  Cursor c(m);
  if (!c.literal("NCCL version ")) return false;
  // `(\d+\.\d+\.\d+)`: no digit run can give way to a dot.
  size_t start = c.pos();
  std::string_view part;
  if (!c.span(is_digit, part) || !c.literal(".") || !c.span(is_digit, part) || !c.literal(".") ||
      !c.span(is_digit, part)) {
    return false;
  }
  version = c.since(start);
  // `[^+\s]*` stops at the only byte `(?:\+cuda(\d+(?:\.\d+)?))?` can start with.
  c.skip([](char ch) { return ch != '+' && !is_re2_space(ch); });
  if (c.literal("+cuda")) {
    size_t from = c.pos();
    if (c.span(is_digit, part)) {
      size_t major_end = c.pos();
      if (!c.literal(".") || !c.span(is_digit, part)) c.seek(major_end);
      cuda = c.since(from);
    }
  }
  return true;
}

bool match_cuda_driver(std::string_view m, std::string_view& version) {
  version = {};
  Cursor c(m);
  std::string_view digits;
  if (!c.literal("cudaDriverVersion ") || !c.span(is_digit, digits)) return false;
  version = digits;
  return true;
}

bool match_comm_shape(std::string_view m, CommShapeCaptures& out) {
  out = {};
  CommShapeCaptures got;
  Cursor c(m);
  // `(\S+)` then a space: no shorter token is followed by one.
  if (!c.literal("comm ") || !c.span(is_not_re2_space, got.comm)) return false;
  struct Field {
    std::string_view key;
    std::string_view* value;
  };
  const Field fields[] = {{" rank ", &got.rank},           {" nRanks ", &got.nranks},
                          {" nNodes ", &got.nnodes},       {" localRanks ", &got.local_ranks},
                          {" localRank ", &got.local_rank}};
  for (const Field& f : fields) {
    if (!c.literal(f.key) || !c.span(is_digit, *f.value)) return false;
  }
  out = got;
  return true;
}

bool match_graph_ring(std::string_view m, GraphRingCaptures& out) {
  out = {};
  GraphRingCaptures got;
  Cursor c(m);
  if (!c.literal("Ring ") || !c.span(is_digit, got.channel) || !c.literal(" : ") || !c.signed_digits(got.prev) ||
      !c.literal(" -> ") || !c.signed_digits(got.me) || !c.literal(" -> ") || !c.signed_digits(got.next) ||
      !c.only_space_left()) {
    return false;
  }
  out = got;
  return true;
}

bool match_ring_listing(std::string_view m, RingListingCaptures& out) {
  out = {};
  RingListingCaptures got;
  Cursor c(m);
  if (!c.literal("Channel ") && !c.literal("Ring ")) return false;
  if (!c.span(is_digit, got.channel)) return false;
  // `(?:/(\d+))?`: taken when digits follow the slash, else ` :` must come.
  size_t before_slash = c.pos();
  if (c.literal("/") && !c.span(is_digit, got.count)) {
    c.seek(before_slash);
    got.count = {};
  }
  if (!c.literal(" :")) return false;
  // `((?: +\d+)*)`: spaces count only before digits; a digit run is taken
  // whole (nothing after it may start with a digit).
  size_t ranks_from = c.pos();
  std::string_view run;
  while (true) {
    size_t at = c.pos();
    if (!c.span(is_space_char, run) || !c.span(is_digit, run)) {
      c.seek(at);
      break;
    }
  }
  got.ranks = c.since(ranks_from);
  // `( *\.\.\.)?\s*$`
  size_t ranks_end = c.pos();
  c.skip(is_space_char);
  if (c.literal("...") && c.only_space_left()) {
    got.dots = c.since(ranks_end);
  } else {
    c.seek(ranks_end);
    if (!c.only_space_left()) return false;
  }
  out = got;
  return true;
}

}  // namespace nd
