"""Discord's documented limits, checked the way Discord checks them (400, code 50035).

Each check adds ``(path, code, message)`` to a :class:`FormErrors`; ``raise_if_any`` turns them into
the nested ``errors`` object Discord sends (``{"content": {"_errors": [{code, message}]}}``), which
discord.py flattens into ``In content: Must be 2000 or fewer in length.``
"""

from __future__ import annotations

import re
from typing import Any

from .model import FLAG_COMPONENTS_V2, ApiError, iter_components

NAME_RE = re.compile(r"^[-_'\w]{1,32}$")

MAX_CONTENT = 2000
MAX_EMBEDS = 10
MAX_EMBED_TOTAL = 6000
MAX_ACTION_ROWS = 5
MAX_ROW_BUTTONS = 5
MAX_V2_COMPONENTS = 40
MAX_FILES = 10
MAX_CHOICES = 25
MAX_SELECT_OPTIONS = 25
BUTTON = 2
SELECTS = (3, 5, 6, 7, 8)
TEXT_INPUT = 4
LINK_STYLE = 5
PREMIUM_STYLE = 6


class FormErrors:
    def __init__(self) -> None:
        self.items: list[tuple[str, str, str]] = []

    def add(self, path: str, code: str, message: str) -> None:
        self.items.append((path, code, message))

    def too_long(self, path: str, value: Any, limit: int) -> None:
        if isinstance(value, str) and len(value) > limit:
            self.add(path, "BASE_TYPE_MAX_LENGTH", f"Must be {limit} or fewer in length.")

    def length_between(self, path: str, value: Any, low: int, high: int) -> None:
        if not isinstance(value, str) or not low <= len(value) <= high:
            self.add(path, "BASE_TYPE_BAD_LENGTH", f"Must be between {low} and {high} in length.")

    def raise_if_any(self, message: str = "Invalid Form Body") -> None:
        if not self.items:
            return
        errors: dict[str, Any] = {}
        for path, code, text in self.items:
            node = errors
            for part in path.split("."):
                node = node.setdefault(part, {})
            node.setdefault("_errors", []).append({"code": code, "message": text})
        raise ApiError(400, 50035, message, errors)


def _embed_length(embed: dict[str, Any]) -> int:
    total = len(embed.get("title") or "") + len(embed.get("description") or "")
    total += len((embed.get("footer") or {}).get("text") or "")
    total += len((embed.get("author") or {}).get("name") or "")
    for embed_field in embed.get("fields") or []:
        total += len(embed_field.get("name") or "") + len(embed_field.get("value") or "")
    return total


def check_embeds(errors: FormErrors, embeds: list[dict[str, Any]]) -> None:
    if len(embeds) > MAX_EMBEDS:
        errors.add("embeds", "BASE_TYPE_MAX_LENGTH", f"Must be {MAX_EMBEDS} or fewer in length.")
    total = 0
    for i, embed in enumerate(embeds):
        path = f"embeds.{i}"
        errors.too_long(f"{path}.title", embed.get("title"), 256)
        errors.too_long(f"{path}.description", embed.get("description"), 4096)
        errors.too_long(f"{path}.footer.text", (embed.get("footer") or {}).get("text"), 2048)
        errors.too_long(f"{path}.author.name", (embed.get("author") or {}).get("name"), 256)
        fields = embed.get("fields") or []
        if len(fields) > 25:
            errors.add(f"{path}.fields", "BASE_TYPE_MAX_LENGTH", "Must be 25 or fewer in length.")
        for j, embed_field in enumerate(fields):
            errors.length_between(f"{path}.fields.{j}.name", embed_field.get("name"), 1, 256)
            errors.length_between(f"{path}.fields.{j}.value", embed_field.get("value"), 1, 1024)
        total += _embed_length(embed)
    if total > MAX_EMBED_TOTAL:
        errors.add("embeds", "MAX_EMBED_SIZE_EXCEEDED", "Embed size exceeds maximum size of 6000")


def _check_button(errors: FormErrors, path: str, button: dict[str, Any]) -> None:
    style = button.get("style")
    if style not in (1, 2, 3, 4, 5, 6):
        errors.add(f"{path}.style", "BASE_TYPE_CHOICES", "Value must be one of (1, 2, 3, 4, 5, 6).")
    errors.too_long(f"{path}.label", button.get("label"), 80)
    if style == LINK_STYLE:
        if not button.get("url"):
            errors.add(f"{path}.url", "BASE_TYPE_REQUIRED", "This field is required")
        if "custom_id" in button:
            errors.add(f"{path}.custom_id", "BUTTON_COMPONENT_CUSTOM_ID_NOT_ALLOWED", "A custom id is not allowed")
    elif style == PREMIUM_STYLE:
        if not button.get("sku_id"):
            errors.add(f"{path}.sku_id", "BASE_TYPE_REQUIRED", "This field is required")
    else:
        errors.length_between(f"{path}.custom_id", button.get("custom_id"), 1, 100)
        if not button.get("label") and not button.get("emoji"):
            errors.add(path, "BUTTON_COMPONENT_LABEL_OR_EMOJI_REQUIRED", "A label or an emoji is required")


def _check_select(errors: FormErrors, path: str, select: dict[str, Any]) -> None:
    errors.length_between(f"{path}.custom_id", select.get("custom_id"), 1, 100)
    errors.too_long(f"{path}.placeholder", select.get("placeholder"), 150)
    min_values = select.get("min_values", 1)
    max_values = select.get("max_values", 1)
    if not 0 <= min_values <= 25:
        errors.add(f"{path}.min_values", "NUMBER_TYPE_MAX", "min_values must be between 0 and 25.")
    if not 1 <= max_values <= 25 or max_values < min_values:
        errors.add(f"{path}.max_values", "NUMBER_TYPE_MAX", "max_values must be between 1 and 25.")
    if select.get("type") == 3:
        options = select.get("options") or []
        if not 1 <= len(options) <= MAX_SELECT_OPTIONS:
            errors.add(f"{path}.options", "BASE_TYPE_BAD_LENGTH", "Must be between 1 and 25 in length.")
        if max_values > len(options) and options:
            errors.add(f"{path}.max_values", "SELECT_COMPONENT_TOO_MANY_OPTIONS", "max_values exceeds options.")
        seen: set[str] = set()
        for k, option in enumerate(options):
            errors.length_between(f"{path}.options.{k}.label", option.get("label"), 1, 100)
            errors.length_between(f"{path}.options.{k}.value", option.get("value"), 1, 100)
            errors.too_long(f"{path}.options.{k}.description", option.get("description"), 100)
            if option.get("value") in seen:
                errors.add(f"{path}.options.{k}.value", "SELECT_COMPONENT_OPTION_VALUE_DUPLICATED",
                           "Select options must have unique values.")
            seen.add(option.get("value"))


def check_components(errors: FormErrors, components: list[dict[str, Any]], flags: int) -> None:
    custom_ids: set[str] = set()
    for component in iter_components(components):
        custom_id = component.get("custom_id")
        if custom_id is None:
            continue
        if custom_id in custom_ids:
            errors.add("components", "COMPONENT_CUSTOM_ID_DUPLICATED", f"Component custom id {custom_id!r} "
                       "cannot be duplicated")
        custom_ids.add(custom_id)

    if flags & FLAG_COMPONENTS_V2:
        count = sum(1 for _ in iter_components(components))
        if count > MAX_V2_COMPONENTS:
            errors.add("components", "BASE_TYPE_MAX_LENGTH", f"Must be {MAX_V2_COMPONENTS} or fewer in length.")
        for i, component in enumerate(components):
            _check_leaf_items(errors, f"components.{i}", component)
        return

    if len(components) > MAX_ACTION_ROWS:
        errors.add("components", "BASE_TYPE_MAX_LENGTH", f"Must be {MAX_ACTION_ROWS} or fewer in length.")
    for i, row in enumerate(components):
        path = f"components.{i}"
        if row.get("type") != 1:
            errors.add(f"{path}.type", "UNION_TYPE_CHOICES",
                       "Only action rows are allowed at the top level without the IS_COMPONENTS_V2 flag")
            continue
        items = row.get("components") or []
        if not 1 <= len(items) <= MAX_ROW_BUTTONS:
            errors.add(f"{path}.components", "BASE_TYPE_BAD_LENGTH", "Must be between 1 and 5 in length.")
        if any(item.get("type") in SELECTS for item in items) and len(items) > 1:
            errors.add(f"{path}.components", "COMPONENT_LAYOUT_WIDTH_EXCEEDED",
                       "The specified component exceeds the maximum width")
        for j, item in enumerate(items):
            _check_leaf_items(errors, f"{path}.components.{j}", item)


def _check_leaf_items(errors: FormErrors, path: str, component: dict[str, Any]) -> None:
    kind = component.get("type")
    if kind == BUTTON:
        _check_button(errors, path, component)
    elif kind in SELECTS:
        _check_select(errors, path, component)
    for j, child in enumerate(component.get("components") or []):
        _check_leaf_items(errors, f"{path}.components.{j}", child)
    if isinstance(component.get("accessory"), dict):
        _check_leaf_items(errors, f"{path}.accessory", component["accessory"])


def check_message(
    *,
    content: str | None,
    embeds: list[dict[str, Any]],
    components: list[dict[str, Any]],
    attachment_count: int,
    flags: int,
    has_poll: bool = False,
) -> None:
    """Checks a message's resulting state; raises ApiError like Discord would."""
    errors = FormErrors()
    if content is not None and not isinstance(content, str):
        errors.add("content", "BASE_TYPE_STRING", "Must be a string.")
    errors.too_long("content", content, MAX_CONTENT)
    check_embeds(errors, embeds)
    check_components(errors, components, flags)
    if attachment_count > MAX_FILES:
        errors.add("attachments", "BASE_TYPE_MAX_LENGTH", f"Must be {MAX_FILES} or fewer in length.")
    if flags & FLAG_COMPONENTS_V2 and (content or embeds):
        errors.add("content", "MESSAGE_CANNOT_USE_LEGACY_FIELDS_WITH_COMPONENTS_V2",
                   "The 'content' and 'embeds' fields cannot be used when using MessageFlags.IS_COMPONENTS_V2")
    errors.raise_if_any()
    if not content and not embeds and not components and not attachment_count and not has_poll:
        raise ApiError(400, 50006, "Cannot send an empty message")


def check_choices(choices: Any, option_type: int | None) -> None:
    errors = FormErrors()
    if not isinstance(choices, list):
        errors.add("data.choices", "BASE_TYPE_REQUIRED", "This field is required")
        errors.raise_if_any()
    if len(choices) > MAX_CHOICES:
        errors.add("data.choices", "BASE_TYPE_MAX_LENGTH", f"Must be {MAX_CHOICES} or fewer in length.")
    for i, choice in enumerate(choices):
        errors.length_between(f"data.choices.{i}.name", choice.get("name"), 1, 100)
        value = choice.get("value")
        if option_type == 3:
            if not isinstance(value, str):
                errors.add(f"data.choices.{i}.value", "BASE_TYPE_STRING", "Must be a string.")
            else:
                errors.too_long(f"data.choices.{i}.value", value, 100)
        elif option_type in (4, 10) and (isinstance(value, bool) or not isinstance(value, (int, float))):
            errors.add(f"data.choices.{i}.value", "NUMBER_TYPE_COERCE", f"Value {value!r} is not a number.")
    errors.raise_if_any()


def check_modal(data: Any) -> None:
    errors = FormErrors()
    if not isinstance(data, dict):
        errors.add("data", "BASE_TYPE_REQUIRED", "This field is required")
        errors.raise_if_any()
    errors.length_between("data.custom_id", data.get("custom_id"), 1, 100)
    errors.length_between("data.title", data.get("title"), 1, 45)
    components = data.get("components") or []
    if not 1 <= len(components) <= 5:
        errors.add("data.components", "BASE_TYPE_BAD_LENGTH", "Must be between 1 and 5 in length.")
    errors.raise_if_any()


# --- application command definitions -------------------------------------------------------------

SUB_COMMAND = 1
SUB_COMMAND_GROUP = 2
OPTION_TYPES = range(1, 12)


def _check_name(errors: FormErrors, path: str, name: Any) -> None:
    if not isinstance(name, str) or not NAME_RE.match(name) or name != name.lower():
        errors.add(f"{path}.name", "APPLICATION_COMMAND_INVALID_NAME", f"Command name is invalid: {name!r}")


def _check_options(errors: FormErrors, path: str, options: list[dict[str, Any]], depth: int) -> None:
    if len(options) > 25:
        errors.add(f"{path}.options", "BASE_TYPE_MAX_LENGTH", "Must be 25 or fewer in length.")
    names: set[str] = set()
    seen_optional = False
    kinds = {"sub" if o.get("type") in (SUB_COMMAND, SUB_COMMAND_GROUP) else "value" for o in options}
    if len(kinds) > 1:
        errors.add(f"{path}.options", "APPLICATION_COMMAND_OPTIONS_TYPE_INVALID",
                   "Sub-command and sub-command group option types are mutually exclusive to all other types")
    for i, option in enumerate(options):
        opath = f"{path}.options.{i}"
        _check_name(errors, opath, option.get("name"))
        errors.length_between(f"{opath}.description", option.get("description"), 1, 100)
        if option.get("name") in names:
            errors.add(f"{opath}.name", "APPLICATION_COMMAND_OPTIONS_NAME_ALREADY_EXISTS",
                       "Option names must be unique")
        names.add(option.get("name"))
        kind = option.get("type")
        if kind not in OPTION_TYPES:
            errors.add(f"{opath}.type", "BASE_TYPE_CHOICES", "Value must be one of 1..11.")
            continue
        if kind == SUB_COMMAND_GROUP:
            if depth != 0:
                errors.add(f"{opath}.type", "APPLICATION_COMMAND_OPTION_TYPE_INVALID", "Groups cannot be nested")
            subs = option.get("options") or []
            if any(sub.get("type") != SUB_COMMAND for sub in subs):
                errors.add(f"{opath}.options", "APPLICATION_COMMAND_OPTION_TYPE_INVALID",
                           "A sub-command group may only contain sub-commands")
            _check_options(errors, opath, subs, depth + 1)
        elif kind == SUB_COMMAND:
            if depth > 1:
                errors.add(f"{opath}.type", "APPLICATION_COMMAND_OPTION_TYPE_INVALID", "Sub-commands nest too deep")
            _check_options(errors, opath, option.get("options") or [], 2)
        else:
            if option.get("required"):
                if seen_optional:
                    errors.add(f"{opath}.required", "APPLICATION_COMMAND_OPTIONS_REQUIRED_INVALID",
                               "Required options must be placed before non-required options")
            else:
                seen_optional = True
            choices = option.get("choices") or []
            if len(choices) > MAX_CHOICES:
                errors.add(f"{opath}.choices", "BASE_TYPE_MAX_LENGTH", "Must be 25 or fewer in length.")
            if choices and option.get("autocomplete"):
                errors.add(f"{opath}.autocomplete", "APPLICATION_COMMAND_OPTIONS_AUTOCOMPLETE_WITH_CHOICES",
                           "Autocomplete cannot be used with choices")
            for k, choice in enumerate(choices):
                errors.length_between(f"{opath}.choices.{k}.name", choice.get("name"), 1, 100)
                if kind == 3:
                    errors.too_long(f"{opath}.choices.{k}.value", choice.get("value"), 100)


def check_commands(commands: Any) -> None:
    """Checks a bulk-overwrite payload (PUT .../commands) like Discord does."""
    errors = FormErrors()
    if not isinstance(commands, list):
        errors.add("_root", "BASE_TYPE_ARRAY", "Must be an array.")
        errors.raise_if_any()
    per_type: dict[int, int] = {}
    seen: set[tuple[int, str]] = set()
    for i, command in enumerate(commands):
        path = str(i)
        kind = command.get("type", 1)
        per_type[kind] = per_type.get(kind, 0) + 1
        name = command.get("name")
        if kind == 1:
            _check_name(errors, path, name)
            errors.length_between(f"{path}.description", command.get("description"), 1, 100)
            _check_options(errors, path, command.get("options") or [], 0)
        else:
            errors.length_between(f"{path}.name", name, 1, 32)
        if (kind, name) in seen:
            errors.add(f"{path}.name", "APPLICATION_COMMANDS_DUPLICATE_NAME", f"Application command names must be "
                       f"unique: {name!r}")
        seen.add((kind, name))
    if per_type.get(1, 0) > 100 or per_type.get(2, 0) > 15 or per_type.get(3, 0) > 15:
        errors.add("_root", "BASE_TYPE_MAX_LENGTH", "Too many application commands.")
    errors.raise_if_any()
