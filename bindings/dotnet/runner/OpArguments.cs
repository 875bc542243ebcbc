using System.IO;
using System.Json;
using System.Text;

namespace Paywire.Conformance
{
    /// <summary>
    /// The arguments of an op (tests/conformance/README.md). String arguments become bytes for the
    /// library: <c>&lt;key&gt;_text</c> verbatim, <c>&lt;key&gt;_hex</c> raw bytes (possibly invalid
    /// UTF-8), <c>&lt;key&gt;_repeat</c> for huge inputs, or <c>&lt;key&gt;</c> (a method name as is, a
    /// JSON value as JSON); absent or null is a NULL pointer. Decoding follows the C runner: a bad
    /// hex digit becomes '?', and bytes after a NUL never reach the library.
    /// </summary>
    internal static class OpArguments
    {
        /// <summary>The bytes of argument <paramref name="key"/>, or null for a NULL pointer.</summary>
        internal static byte[] Bytes(JsonObject op, string key, bool valueIsJson)
        {
            string text = String(op, key + "_text");
            if (text != null) return Encoding.UTF8.GetBytes(text);
            string hex = String(op, key + "_hex");
            if (hex != null) return FromHex(hex);
            var repeat = Get(op, key + "_repeat") as JsonObject;
            if (repeat != null) return Repeated(repeat);
            JsonValue value = Get(op, key);
            if (value == null) return null;
            if (!valueIsJson && value.JsonType == JsonType.String) return Encoding.UTF8.GetBytes((string)value);
            return Encoding.UTF8.GetBytes(value.ToString());
        }

        /// <summary>A member, or null when it is absent or JSON null.</summary>
        internal static JsonValue Get(JsonObject op, string key)
        {
            JsonValue value;
            return op.TryGetValue(key, out value) ? value : null;
        }

        internal static string String(JsonObject op, string key)
        {
            JsonValue value = Get(op, key);
            return value != null && value.JsonType == JsonType.String ? (string)value : null;
        }

        internal static long Integer(JsonObject op, string key)
        {
            JsonValue value = Get(op, key);
            return value != null && value.JsonType == JsonType.Number ? (long)value : 0;
        }

        /// <summary>True only for JSON true, as the C runner's json_is_true.</summary>
        internal static bool IsTrue(JsonObject op, string key)
        {
            JsonValue value = Get(op, key);
            return value != null && value.JsonType == JsonType.Boolean && (bool)value;
        }

        /// <summary>True only for JSON false, as the C runner's json_is_false.</summary>
        internal static bool IsFalse(JsonObject op, string key)
        {
            JsonValue value = Get(op, key);
            return value != null && value.JsonType == JsonType.Boolean && !(bool)value;
        }

        private static byte[] FromHex(string hex)
        {
            var bytes = new byte[hex.Length / 2];
            for (int i = 0; i < bytes.Length; i++)
            {
                int high = HexValue(hex[2 * i]), low = HexValue(hex[2 * i + 1]);
                bytes[i] = (byte)(high < 0 || low < 0 ? '?' : high << 4 | low);
            }
            return bytes;
        }

        private static int HexValue(char c)
        {
            if (c >= '0' && c <= '9') return c - '0';
            if (c >= 'a' && c <= 'f') return c - 'a' + 10;
            return c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
        }

        private static byte[] Repeated(JsonObject repeat)
        {
            string text = String(repeat, "text");
            long times = Integer(repeat, "times");
            if (text == null || times < 0) return null;
            byte[] unit = Encoding.UTF8.GetBytes(text);
            var output = new MemoryStream();
            string prefix = String(repeat, "prefix"), suffix = String(repeat, "suffix");
            if (prefix != null) Write(output, Encoding.UTF8.GetBytes(prefix));
            for (long i = 0; i < times; i++) output.Write(unit, 0, unit.Length);
            if (suffix != null) Write(output, Encoding.UTF8.GetBytes(suffix));
            return output.ToArray();
        }

        private static void Write(MemoryStream output, byte[] bytes)
        {
            output.Write(bytes, 0, bytes.Length);
        }
    }
}
