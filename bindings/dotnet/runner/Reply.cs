using System;
using System.Collections.Generic;
using System.Json;
using System.Text;

namespace Paywire.Conformance
{
    /// <summary>
    /// One reply line, built member by member. JSON the library wrote goes in verbatim once
    /// System.Json has checked it parses: re-printing it would turn a number System.Json cannot hold
    /// exactly (past decimal's 28 digits) into a rounded double, while the text is already JSON.
    /// </summary>
    internal sealed class Reply
    {
        private readonly List<KeyValuePair<string, string>> members = new List<KeyValuePair<string, string>>();

        internal static Reply RunnerError(string message)
        {
            return new Reply().Add("runner_error", message);
        }

        internal Reply AddJson(string key, JsonValue value)
        {
            members.Add(new KeyValuePair<string, string>(key, value == null ? "null" : value.ToString()));
            return this;
        }

        internal Reply Add(string key, string value)
        {
            return AddJson(key, value == null ? null : new JsonPrimitive(value));
        }

        internal Reply Add(string key, long value)
        {
            return AddJson(key, new JsonPrimitive(value));
        }

        internal Reply Add(string key, bool value)
        {
            return AddJson(key, new JsonPrimitive(value));
        }

        /// <summary>Adds JSON text as it is; the caller checked it is one JSON value on one line.</summary>
        internal Reply AddVerbatim(string key, string json)
        {
            members.Add(new KeyValuePair<string, string>(key, json));
            return this;
        }

        /// <summary>
        /// Adds <paramref name="text"/> as JSON under <paramref name="key"/> when it parses; false when
        /// it does not. Text with a line break between tokens is re-printed to keep the reply one line.
        /// </summary>
        internal bool TryAddJson(string key, string text)
        {
            JsonValue parsed;
            try
            {
                parsed = JsonValue.Parse(text);
            }
            catch (Exception)
            {
                return false; // ArgumentException for bad syntax; number conversions may throw others
            }
            if (text.IndexOf('\n') >= 0 || text.IndexOf('\r') >= 0) AddJson(key, parsed);
            else AddVerbatim(key, text);
            return true;
        }

        public override string ToString()
        {
            var line = new StringBuilder("{");
            for (int i = 0; i < members.Count; i++)
            {
                if (i > 0) line.Append(',');
                line.Append(new JsonPrimitive(members[i].Key).ToString()).Append(':').Append(members[i].Value);
            }
            return line.Append('}').ToString();
        }
    }
}
