package cn.wms.inventory.mapper;

import java.util.List;

import org.apache.ibatis.annotations.Param;
import org.apache.ibatis.annotations.Select;
import org.apache.ibatis.annotations.Update;

import cn.wms.inventory.model.StockItem;

public interface StockItemMapper {

    @Select("SELECT id, sku, bin_code, quantity FROM stock_item "
            + "WHERE warehouse_id = #{warehouseId} AND locked_by IS NULL")
    List<StockItem> listUnlocked(@Param("warehouseId") long warehouseId);

    @Select("SELECT COUNT(*) FROM stock_item WHERE expired_at IS NOT NULL AND expired_at < NOW()")
    int countExpired();

    @Update("UPDATE stock_item SET locked_by = #{worker} WHERE id = #{id}")
    int lock(@Param("id") long id, @Param("worker") String worker);
}
