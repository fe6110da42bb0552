"""uuidx's UUIDs in a Django model (UUIDField) on in-memory SQLite: stored, queried, ordered."""

from __future__ import annotations

import uuid
from typing import Any

import pytest
from optional import need

import uuidx

django = need("django")

from django.conf import settings  # type: ignore[import-untyped]  # noqa: E402

if not settings.configured:
    settings.configure(
        DATABASES={"default": {"ENGINE": "django.db.backends.sqlite3", "NAME": ":memory:"}},
        INSTALLED_APPS=[],
        USE_TZ=True,
        DEFAULT_AUTO_FIELD="django.db.models.AutoField",
    )
    django.setup()

from django.db import connection, models  # type: ignore[import-untyped]  # noqa: E402


class Ticket(models.Model):  # type: ignore[misc]  # django ships no type information
    id = models.UUIDField(primary_key=True, default=uuidx.uuid7, editable=False)
    title = models.CharField(max_length=50)

    class Meta:
        app_label = "uuidx_tests"


@pytest.fixture(scope="module")
def table() -> Any:
    with connection.schema_editor() as editor:
        editor.create_model(Ticket)
    yield Ticket
    with connection.schema_editor() as editor:
        editor.delete_model(Ticket)


def test_default_and_lookup(table: Any) -> None:
    made = [table.objects.create(title=f"t{i}") for i in range(50)]
    assert all(type(t.id) is uuid.UUID and t.id.version == 7 for t in made)
    ordered = list(table.objects.order_by("id").values_list("title", flat=True))
    assert ordered == [f"t{i}" for i in range(50)], "v7 primary keys sort in creation order"
    fetched = table.objects.get(pk=made[7].id)
    assert fetched.id == made[7].id and type(fetched.id) is uuid.UUID
    assert table.objects.filter(id=str(made[3].id)).get().title == "t3"


def test_form_field_and_explicit_values(table: Any) -> None:
    u = uuidx.uuid4()
    table.objects.create(id=u, title="explicit")
    assert table.objects.get(id=u).title == "explicit"
    field = models.UUIDField()
    assert field.to_python(str(uuidx.NIL)) == uuidx.NIL
    assert field.get_prep_value(u) == u
