using System;
using System.Collections.Generic;
using System.Json;

namespace Paywire
{
    /// <summary>
    /// What the generated models (Paywire.Model, Models.g.cs) read and write JSON with. Hand-written
    /// and small on purpose: the generated code calls only these, so how a model reads JSON changes
    /// here once, not in the generator's templates. Not for hosts: the models are the surface.
    /// A value of the wrong shape throws FormatException naming what was expected.
    /// </summary>
    public static class ModelJson
    {
        public static JsonObject Obj(JsonValue json, string owner)
        {
            var obj = json as JsonObject;
            if (obj == null) throw new FormatException(owner + ": expected a JSON object, got " + Text(json));
            return obj;
        }

        /// <summary>A required member; its absence names the model and the member.</summary>
        public static JsonValue Req(JsonObject obj, string key, string owner)
        {
            if (!obj.ContainsKey(key)) throw new FormatException(owner + ": missing required field " + key);
            return obj[key];
        }

        /// <summary>True when an optional member is there and not null (null reads as absent for those).</summary>
        public static bool Present(JsonObject obj, string key)
        {
            return obj.ContainsKey(key) && obj[key] != null;
        }

        public static string String(JsonValue json)
        {
            return Is(json, JsonType.String, "a string") ? (string)json : null;
        }

        public static long? Integer(JsonValue json)
        {
            if (!Is(json, JsonType.Number, "an integer")) return null;
            decimal value = (decimal)json;
            if (value != decimal.Truncate(value)) throw new FormatException("expected an integer, got " + Text(json));
            return (long)value;
        }

        public static bool? Bool(JsonValue json)
        {
            return Is(json, JsonType.Boolean, "a boolean") ? (bool)json : (bool?)null;
        }

        /// <summary>A number exactly as the library wrote it: System.Json reads it as a decimal, scale kept.</summary>
        public static decimal? Decimal(JsonValue json)
        {
            return Is(json, JsonType.Number, "a number") ? (decimal)json : (decimal?)null;
        }

        public static JsonObject Object(JsonValue json)
        {
            return Obj(json, "free JSON object");
        }

        /// <summary>A null result: nothing to read.</summary>
        public static object None(JsonValue json)
        {
            if (json != null) throw new FormatException("expected null, got " + Text(json));
            return null;
        }

        public static T Nullable<T>(JsonValue json, Func<JsonValue, T> decode)
        {
            return json == null ? default(T) : decode(json);
        }

        public static List<T> List<T>(JsonValue json, Func<JsonValue, T> decode)
        {
            var array = json as JsonArray;
            if (array == null) throw new FormatException("expected an array, got " + Text(json));
            var list = new List<T>();
            foreach (JsonValue item in array) list.Add(decode(item));
            return list;
        }

        /// <summary>A JSON object of values of one type.</summary>
        public static Dictionary<string, T> Map<T>(JsonValue json, Func<JsonValue, T> decode)
        {
            var map = new Dictionary<string, T>();
            foreach (KeyValuePair<string, JsonValue> entry in Obj(json, "map")) map[entry.Key] = decode(entry.Value);
            return map;
        }

        public static JsonValue Json(string value) { return value == null ? null : new JsonPrimitive(value); }
        public static JsonValue Json(long? value) { return value == null ? null : new JsonPrimitive(value.Value); }
        public static JsonValue Json(bool? value) { return value == null ? null : new JsonPrimitive(value.Value); }
        public static JsonValue Json(decimal? value) { return value == null ? null : new JsonPrimitive(value.Value); }
        public static JsonValue Json(JsonValue value) { return value; }
        public static JsonValue Json(object value) { return value == null ? null : (JsonValue)value; }

        public static JsonValue NullOr<T>(T value, Func<T, JsonValue> encode)
        {
            return value == null ? null : encode(value);
        }

        public static JsonArray Array<T>(List<T> values, Func<T, JsonValue> encode)
        {
            var array = new JsonArray();
            foreach (T value in values) array.Add(encode(value));
            return array;
        }

        public static JsonObject Object<T>(Dictionary<string, T> values, Func<T, JsonValue> encode)
        {
            var obj = new JsonObject();
            foreach (KeyValuePair<string, T> entry in values) obj[entry.Key] = encode(entry.Value);
            return obj;
        }

        /// <summary>The members of <paramref name="obj"/> a model does not name, for it to write back.</summary>
        public static JsonObject Extra(JsonObject obj, HashSet<string> known)
        {
            var extra = new JsonObject();
            foreach (KeyValuePair<string, JsonValue> entry in obj)
            {
                if (!known.Contains(entry.Key)) extra[entry.Key] = entry.Value;
            }
            return extra;
        }

        public static void AddAll(JsonObject target, JsonObject extra)
        {
            if (extra == null) return;
            foreach (KeyValuePair<string, JsonValue> entry in extra) target[entry.Key] = entry.Value;
        }

        /// <summary>True when a tagged union's tag is the string <paramref name="value"/>.</summary>
        public static bool Is(JsonValue tag, string value)
        {
            return tag != null && tag.JsonType == JsonType.String && (string)tag == value;
        }

        private static bool Is(JsonValue json, JsonType type, string expected)
        {
            if (json == null || json.JsonType != type) throw new FormatException("expected " + expected + ", got " + Text(json));
            return true;
        }

        private static string Text(JsonValue json)
        {
            return json == null ? "null" : json.ToString();
        }
    }
}
